"""SinusoidalPositions and LearnedPositions: the paper's formula entry by entry, adding to a
(B, T, d) input from any start, the error beyond max_len, gradients, and why they exist: without
positions self-attention is permutation-equivariant, with them it is not."""

import numpy as np
import pytest

from minigrad import Tensor, gradcheck, manual_seed
from attention import MultiHeadAttention, self_attention
from attention.positions import LearnedPositions, SinusoidalPositions, sinusoids


def test_sinusoids_follow_the_paper_entry_by_entry():
    d = 6
    table = sinusoids(50, d)
    assert table.shape == (50, d) and table.dtype == np.float64
    for pos in (0, 1, 7, 49):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert table[pos, 2 * i] == pytest.approx(np.sin(angle), abs=1e-15)
            assert table[pos, 2 * i + 1] == pytest.approx(np.cos(angle), abs=1e-15)
    np.testing.assert_array_equal(table[0], [0, 1, 0, 1, 0, 1])
    odd = sinusoids(5, 5)                           # one sine more than cosines
    np.testing.assert_allclose(odd[:, 4], np.sin(np.arange(5) / 10000 ** (4 / 5)), rtol=1e-15)
    np.testing.assert_allclose(odd[:, 3], np.cos(np.arange(5) / 10000 ** (2 / 5)), rtol=1e-15)


def test_sinusoidal_positions_add_the_rows_from_start_in_the_inputs_dtype():
    module = SinusoidalPositions(4, max_len=10)
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    y = module(Tensor(x, requires_grad=True))
    assert y.dtype == np.float32 and y.shape == (2, 3, 4)
    np.testing.assert_allclose(y.data, x + sinusoids(10, 4)[:3], rtol=1e-6)
    later = module(Tensor(x[:, :1].astype(np.float64)), start=7)             # decoding step 7
    np.testing.assert_array_equal(later.data, x[:, :1] + sinusoids(10, 4)[7])
    assert list(module.parameters()) == [] and module.state_dict() == {}
    assert y.creator.scope == ("positions",)


def test_learned_positions_add_one_vector_per_position_and_learn_them():
    manual_seed(0)
    module = LearnedPositions(5, 3).double()
    assert [name for name, _ in module.named_parameters()] == ["embedding.weight"]
    x = Tensor(np.zeros((2, 4, 3)), requires_grad=True)
    y = module(x)
    np.testing.assert_array_equal(y.data[1], module.embedding.weight.data[:4])
    y2 = module(Tensor(np.zeros((1, 2, 3))), start=3)
    np.testing.assert_array_equal(y2.data[0], module.embedding.weight.data[3:5])
    assert y.creator.scope == ("positions",)
    y.sum().backward()
    np.testing.assert_array_equal(module.embedding.weight.grad[:4], 2)  # two examples each
    np.testing.assert_array_equal(module.embedding.weight.grad[4], 0)   # position 4 unused
    assert gradcheck(lambda x, w: module(x), x, module.embedding.weight)


@pytest.mark.parametrize("make", [lambda: SinusoidalPositions(3, max_len=4),
                                  lambda: LearnedPositions(4, 3)])
def test_positions_beyond_max_len_are_a_clear_error(make):
    module = make()
    name = type(module).__name__
    module(Tensor(np.zeros((1, 4, 3), dtype=np.float32)))                     # 0 ... 3: fine
    with pytest.raises(ValueError, match=f"^{name}: positions 0 ... 4 go beyond max_len 4 "):
        module(Tensor(np.zeros((1, 5, 3), dtype=np.float32)))
    with pytest.raises(ValueError, match=f"^{name}: positions 3 ... 4 go beyond max_len 4 "):
        module(Tensor(np.zeros((1, 2, 3), dtype=np.float32)), start=3)
    with pytest.raises(ValueError, match=f"^{name}: expected inputs of shape \\(..., T, 3\\)"):
        module(Tensor(np.zeros((1, 2, 5), dtype=np.float32)))


@pytest.mark.parametrize("attention", ["dot-product", "multi-head"])
def test_self_attention_is_permutation_equivariant_without_positions_and_not_with_them(
        attention):
    rng = np.random.default_rng(3)
    manual_seed(4)
    B, T, d = 2, 5, 4
    module = MultiHeadAttention(d, 2).double() if attention == "multi-head" else None
    scale = True if module is None else None
    x = rng.standard_normal((B, T, d))
    order = np.array([3, 0, 4, 1, 2])

    def attend(x):
        output, _ = self_attention(Tensor(x), attention=module, scale=scale)
        return output.data

    # without positions: shuffle the tokens, and the outputs are the same, shuffled alike
    np.testing.assert_allclose(attend(x[:, order]), attend(x)[:, order], rtol=1e-12, atol=1e-14)
    for positions in (SinusoidalPositions(d, max_len=T), LearnedPositions(T, d).double()):
        def with_positions(x):
            return attend(positions(Tensor(x)).data)
        moved = np.abs(with_positions(x[:, order]) - with_positions(x)[:, order]).max()
        assert moved > 1e-3                         # the order now changes what comes out
