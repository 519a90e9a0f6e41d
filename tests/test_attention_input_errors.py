"""Wrong inputs to the attention modules and the Transformer: each is one line naming the module
and the shapes as they were passed, never NumPy's own words, and nothing is broadcast silently
(a memory of one sentence against a batch of two)."""

import numpy as np
import pytest

import minigrad
from minigrad import Tensor
from attention import DecoderBlock, EncoderBlock, MultiHeadAttention, causal_mask
from seq2seq.models.transformer import Transformer

B, T, S, E = 2, 3, 4, 8


@pytest.fixture
def x():
    return Tensor(np.random.default_rng(0).standard_normal((B, T, E)).astype(np.float32))


@pytest.fixture
def memory():
    return Tensor(np.random.default_rng(1).standard_normal((B, S, E)).astype(np.float32))


def decoder_block():
    minigrad.manual_seed(0)
    return DecoderBlock(E, 2, 16, dropout=0.0)


@pytest.mark.parametrize("mask, error, message", [
    (causal_mask(T).astype(float), TypeError,
     "DecoderBlock: mask must be boolean (True = may attend), not float64"),
    (causal_mask(T).astype(int), TypeError,
     "DecoderBlock: mask must be boolean (True = may attend), not int64"),
    (np.ones((B, 1, T + 1), bool), ValueError,
     "DecoderBlock: a mask of shape (2, 1, 4) does not broadcast to the scores' shape (2, 3, 3)"),
])
def test_a_decoder_blocks_wrong_mask_is_refused_as_multihead_attention_refuses_it(
        x, memory, mask, error, message):
    with pytest.raises(error) as caught:
        decoder_block()(x, memory, mask=mask)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_multihead_attentions_mask_error_shows_the_shape_passed(x):
    with pytest.raises(ValueError) as caught:
        MultiHeadAttention(E, 2)(x, x, x, mask=np.ones((T, T + 1), bool))
    assert str(caught.value).startswith("MultiHeadAttention: a mask of shape (3, 4) does not "
                                        "broadcast to the weights' shape (2, 3, 3)")


def test_a_memory_of_one_sentence_is_not_spread_over_a_batch_of_two(x, memory):
    with pytest.raises(ValueError, match=r"query \(2, 3, 8\) and key \(1, 4, 8\) must have the "
                                         r"same batch axes"):
        decoder_block()(x, memory[:1])
    with pytest.raises(ValueError, match=r"query \(2, 3, 8\) and key \(1, 4, 8\)"):
        MultiHeadAttention(E, 2)(x, memory[:1], memory[:1])


@pytest.mark.parametrize("key_shape, message", [
    ((B, 0, E), "MultiHeadAttention: no keys to attend (key of shape (2, 0, 8))"),
    ((B, S, 4), "MultiHeadAttention: expected key of shape (..., T, 8), got (2, 4, 4)"),
])
def test_keys_attention_cannot_use_are_one_line_naming_the_module_and_shape(x, key_shape,
                                                                             message):
    keys = Tensor(np.zeros(key_shape, np.float32))
    with pytest.raises(ValueError) as caught:
        MultiHeadAttention(E, 2)(x, keys, keys)
    assert str(caught.value).startswith(message)


def test_empty_sequences_into_the_blocks_are_one_line_naming_the_block(x, memory):
    empty = Tensor(np.zeros((B, 0, E), np.float32))
    with pytest.raises(ValueError, match=r"DecoderBlock: expected x of shape \(\.\.\., T, "
                                         r"d_model\) with T >= 1, got \(2, 0, 8\)"):
        decoder_block()(empty, memory)
    with pytest.raises(ValueError, match=r"MultiHeadAttention: no keys to attend"):
        EncoderBlock(E, 2, 16, dropout=0.0)(empty)
    with pytest.raises(ValueError, match=r"MultiHeadAttention: no keys to attend \(key of shape "
                                         r"\(2, 0, 8\)\)"):
        decoder_block()(x, empty)


@pytest.mark.parametrize("src, shape", [(np.zeros((1, 0), int), "(1, 0)"),
                                        (np.array([3, 4, 5]), "(3,)")])
def test_a_source_the_transformer_cannot_encode_is_one_line(src, shape):
    model = Transformer(7, 7, d_model=8, heads=2, layers=1, d_ff=8, max_len=16)
    with pytest.raises(ValueError) as caught:
        model.encode(src)
    assert str(caught.value) == (f"Transformer: expected src ids of shape (B, T) with T >= 1, "
                                 f"got shape {shape}")


@pytest.mark.parametrize("padding_idx", [-1, 7, True, 1.0])
def test_a_padding_index_that_is_not_an_id_of_both_vocabularies_is_refused(padding_idx):
    with pytest.raises(ValueError, match=f"Transformer: padding_idx must be an id of both "
                                         f"vocabularies, 0 ... 6, not {padding_idx!r}"):
        Transformer(7, 9, d_model=8, heads=2, layers=1, d_ff=8, max_len=16,
                    padding_idx=padding_idx)
