"""causal_mask and padding_mask: their shapes and values, -inf scores (never a large negative
number), and the causal mask not leaking: an output at position t is exactly the same whatever
the inputs after t are, through dot-product and multi-head self-attention."""

import numpy as np
import pytest

from minigrad import Tensor, manual_seed, topological_order
from minigrad.ops.elementwise import Where
from attention import MultiHeadAttention, self_attention
from attention.masks import causal_mask, padding_mask


def test_causal_mask_is_the_lower_triangle_and_lines_up_with_kept_steps():
    np.testing.assert_array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    assert causal_mask(3).dtype == bool
    # two new queries after two kept steps: they stand at positions 2 and 3
    np.testing.assert_array_equal(causal_mask(2, 4), [[1, 1, 1, 0], [1, 1, 1, 1]])
    np.testing.assert_array_equal(causal_mask(1, 5), [[1, 1, 1, 1, 1]])
    np.testing.assert_array_equal(causal_mask(6)[-2:], causal_mask(2, 6))


def test_causal_mask_refuses_fewer_keys_than_queries_and_no_queries():
    with pytest.raises(ValueError, match="causal_mask: num_keys must be an integer >= 3"):
        causal_mask(3, 2)
    with pytest.raises(ValueError, match="causal_mask: num_queries must be an integer >= 1"):
        causal_mask(0)


def test_padding_mask_from_lengths_and_from_ids_on_either_side():
    from_lengths = padding_mask(np.array([3, 1, 0]))
    assert from_lengths.shape == (3, 1, 3) and from_lengths.dtype == bool
    np.testing.assert_array_equal(from_lengths[:, 0], [[1, 1, 1], [1, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(padding_mask([2, 1], length=4)[:, 0], [[1, 1, 0, 0],
                                                                         [1, 0, 0, 0]])
    ids = np.array([[0, 0, 5, 6], [7, 8, 9, 0]])                    # left and right padding
    np.testing.assert_array_equal(padding_mask(ids, pad_id=0)[:, 0], [[0, 0, 1, 1], [1, 1, 1, 0]])


def test_padding_mask_errors_name_what_is_wrong():
    with pytest.raises(ValueError, match="ids of shape \\(1, 2\\) need pad_id"):
        padding_mask(np.array([[1, 2]]))
    with pytest.raises(ValueError, match="pad_id applies to ids"):
        padding_mask(np.array([1, 2]), pad_id=0)
    with pytest.raises(ValueError, match="length must be an integer >= 3"):
        padding_mask([1, 3], length=2)
    with pytest.raises(TypeError, match="integer lengths"):
        padding_mask(np.array([1.5, 2.0]))
    with pytest.raises(ValueError, match="lengths must be >= 0"):
        padding_mask([2, -1])


def test_masks_combine_into_a_decoders_self_attention_mask():
    ids = np.array([[4, 5, 0], [6, 0, 0]])
    mask = causal_mask(3) & padding_mask(ids, pad_id=0)              # (B, T, T)
    assert mask.shape == (2, 3, 3)
    np.testing.assert_array_equal(mask[1], [[1, 0, 0], [1, 0, 0], [1, 0, 0]])


def test_masked_scores_are_minus_infinity_and_a_row_with_nothing_to_attend_gets_zeros():
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((1, 3, 4)), requires_grad=True)
    mask = padding_mask([0], length=3)                               # nothing may be attended
    context, weights = self_attention(x, mask=mask)
    masked = [t for t in topological_order(weights)                  # the scores, masked
              if isinstance(t.creator, Where) and t.shape == weights.shape]
    assert len(masked) == 1 and np.all(np.isneginf(masked[0].data))  # -inf, not -1e9
    # with -1e9 the weights of an all-masked row would be 1/3 each; with -inf they are 0
    np.testing.assert_array_equal(weights.data, 0)
    np.testing.assert_array_equal(context.data, 0)


def changed_after(x, t, rng):
    """A copy of x (B, T, d) with every position after t replaced by other numbers."""
    other = x.copy()
    other[:, t + 1:] = rng.standard_normal(other[:, t + 1:].shape) * 100
    return other


@pytest.mark.parametrize("kind", ["dot-product", "multi-head"])
def test_causal_mask_does_not_leak_the_future_exactly(kind):
    rng = np.random.default_rng(1)
    manual_seed(2)
    B, T, d = 2, 6, 4
    module = MultiHeadAttention(d, 2).double() if kind == "multi-head" else None
    x = rng.standard_normal((B, T, d))
    causal = causal_mask(T)

    def run(x, mask=causal):
        output, _ = self_attention(Tensor(x), attention=module, mask=mask)
        return output.data

    full = run(x)
    for t in range(T - 1):
        changed = run(changed_after(x, t, rng))
        np.testing.assert_array_equal(changed[:, :t + 1], full[:, :t + 1])    # exactly equal
        assert np.all(changed[:, t + 1:] != full[:, t + 1:])                 # the rest moved
    # without the mask, a change after position 0 reaches position 0
    assert np.all(run(changed_after(x, 0, rng), None)[:, 0] != run(x, None)[:, 0])
