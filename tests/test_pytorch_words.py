"""PyTorch's `dim` and `keepdim` work wherever `axis` and `keepdims` do, with the same result;
both words at once is a one-line TypeError naming the function; `F.cat` is `F.concat`; where
PyTorch's meaning differs (max and min along a dim, split, transpose of two axes) the PyTorch
spelling gets PyTorch's result or a clear error, never a silently different answer."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor
import attention


@pytest.fixture
def x():
    return Tensor(np.random.default_rng(0).standard_normal((2, 3, 4)), requires_grad=True)


# (name in the error, with NumPy's words, with PyTorch's words)
SAME = [
    ("sum", lambda x: x.sum(axis=1, keepdims=True), lambda x: x.sum(dim=1, keepdim=True)),
    ("sum", lambda x: F.sum(x, axis=(0, 2)), lambda x: F.sum(x, dim=(0, 2))),
    ("mean", lambda x: x.mean(axis=-1), lambda x: x.mean(dim=-1)),
    ("mean", lambda x: F.mean(x, axis=0, keepdims=True), lambda x: F.mean(x, dim=0, keepdim=True)),
    ("max", lambda x: x.max(axis=1, keepdims=True), lambda x: x.max(dim=1, keepdim=True).values),
    ("min", lambda x: F.min(x, axis=2), lambda x: F.min(x, dim=2).values),
    ("softmax", lambda x: F.softmax(x, axis=1), lambda x: F.softmax(x, dim=1)),
    ("log_softmax", lambda x: F.log_softmax(x, axis=0), lambda x: F.log_softmax(x, dim=0)),
    ("softmax", lambda x: attention.softmax(x, axis=1), lambda x: attention.softmax(x, dim=1)),
    ("concat", lambda x: F.concat([x, x], axis=2), lambda x: F.concat([x, x], dim=2)),
    ("stack", lambda x: F.stack([x, x], axis=1), lambda x: F.stack([x, x], dim=1)),
    ("squeeze", lambda x: x[:1, :1].squeeze(axis=1), lambda x: x[:1, :1].squeeze(dim=1)),
    ("expand_dims", lambda x: x.expand_dims(axis=1), lambda x: x.expand_dims(dim=1)),
]


@pytest.mark.parametrize("name, numpy_words, pytorch_words", SAME,
                         ids=[f"{s[0]}-{i}" for i, s in enumerate(SAME)])
def test_dim_and_keepdim_give_what_axis_and_keepdims_give(x, name, numpy_words, pytorch_words):
    expected, got = numpy_words(x), pytorch_words(x)    # each axis there is not the default,
    assert got.shape == expected.shape                  # so a `dim` ignored would show
    np.testing.assert_array_equal(got.data, expected.data)


@pytest.mark.parametrize("name, call", [
    ("sum", lambda x: x.sum(axis=0, dim=1)),
    ("sum", lambda x: F.sum(x, keepdims=True, keepdim=True)),
    ("mean", lambda x: x.mean(axis=1, dim=1)),
    ("max", lambda x: x.max(axis=0, dim=1)),
    ("min", lambda x: F.min(x, 0, keepdims=True, keepdim=False)),
    ("softmax", lambda x: F.softmax(x, axis=0, dim=1)),
    ("log_softmax", lambda x: F.log_softmax(x, 1, dim=1)),
    ("softmax", lambda x: attention.softmax(x, 0, dim=0)),
    ("concat", lambda x: F.cat([x, x], axis=1, dim=1)),
    ("stack", lambda x: F.stack([x, x], 1, dim=2)),
    ("squeeze", lambda x: x.squeeze(axis=0, dim=0)),
    ("expand_dims", lambda x: x.expand_dims(0, dim=1)),
])
def test_both_words_at_once_is_a_one_line_type_error_naming_the_function(x, name, call):
    with pytest.raises(TypeError, match=rf"^{name}: got both (axis|keepdims)=\S+ \(NumPy's word\) "
                                        r"and (dim|keepdim)=\S+ \(PyTorch's\); pass one of them$"):
        call(x)


def test_an_empty_dim_reduces_over_every_axis_as_in_pytorch_not_over_none_as_numpy(x):
    for empty in [(), []]:
        assert x.sum(dim=empty).shape == () and np.isclose(x.sum(dim=empty).item(), x.data.sum())
        assert F.mean(x, dim=empty, keepdim=True).shape == (1, 1, 1)
    assert x.sum(axis=()).shape == x.shape                  # NumPy's word: no axis reduced


def test_an_empty_dim_squeezes_no_axis_as_in_pytorch():
    ones = Tensor(np.zeros((1, 3, 1)))
    for empty in [(), []]:
        assert ones.squeeze(dim=empty).shape == (1, 3, 1)
    assert ones.squeeze(axis=()).shape == (1, 3, 1) and ones.squeeze().shape == (3,)
    torch = pytest.importorskip("torch")
    assert tuple(torch.zeros(1, 3, 1).squeeze(dim=()).shape) == (1, 3, 1)


def test_cat_is_concat_under_pytorch_s_name(x):
    assert F.cat is F.concat
    joined = F.cat([x, x[:, :1]], dim=1)
    assert joined.shape == (2, 4, 4)
    np.testing.assert_array_equal(joined.data[:, 3], x.data[:, 0])


def test_max_and_min_with_dim_return_values_and_indices_as_pytorch(x):
    values, indices = x.max(dim=1)
    np.testing.assert_array_equal(values.data, x.data.max(axis=1))
    np.testing.assert_array_equal(indices.data, x.data.argmax(axis=1))
    assert indices.dtype == np.int64 and not indices.requires_grad
    kept = F.min(x, dim=-1, keepdim=True)
    assert kept.values.shape == kept.indices.shape == (2, 3, 1)
    np.testing.assert_array_equal(kept.indices.data[..., 0], x.data.argmin(axis=-1))
    values.sum().backward()                         # the values stay in the graph
    assert x.grad.sum() == 2 * 4 and np.all(x.grad[np.arange(2)[:, None], indices.data,
                                                    np.arange(4)] == 1)
    assert isinstance(x.max(axis=1), Tensor)        # NumPy's word: the values alone


def test_max_with_dim_matches_torch_max_values_and_indices(x):
    torch = pytest.importorskip("torch")
    ours, theirs = x.max(dim=2, keepdim=True), torch.from_numpy(x.data).max(dim=2, keepdim=True)
    np.testing.assert_array_equal(ours.values.data, theirs.values.numpy())
    np.testing.assert_array_equal(ours.indices.data, theirs.indices.numpy())


def test_max_with_several_dims_is_refused_naming_axis_instead(x):
    with pytest.raises(TypeError,
                       match=r"^max: dim=\(0, 1\) must be one axis .* use axis=\(0, 1\)"):
        x.max(dim=(0, 1))


def test_split_refuses_dim_because_torch_split_cuts_chunks_of_a_size(x):
    with pytest.raises(TypeError, match=r"^split: this is NumPy's split .* not torch\.split .* "
                                        r"write split\(x, parts_or_cuts, axis=2\)$"):
        F.split(x, 2, dim=2)
    assert [p.shape for p in F.split(x, 2, axis=2)] == [(2, 3, 2), (2, 3, 2)]


def test_transpose_of_two_axes_the_pytorch_way_is_an_error_not_a_silent_no_op():
    m = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for axes in [(0, 1), (-2, -1)]:                 # NumPy: nothing moves; PyTorch: a swap
        with pytest.raises(ValueError, match=rf"write swapaxes\({axes[0]}, {axes[1]}\)$"):
            m.transpose(*axes)
    with pytest.raises(ValueError, match=r"\(0, 2\) is two of them only"):
        Tensor(np.zeros((2, 3, 4))).transpose(0, 2)
    np.testing.assert_array_equal(m.transpose(1, 0).data, m.data.T)    # the same in both
    np.testing.assert_array_equal(m.transpose((0, 1)).data, m.data)    # NumPy's tuple form
    np.testing.assert_array_equal(m.swapaxes(0, 1).data, m.data.T)


def test_expand_dims_without_an_axis_asks_for_one(x):
    with pytest.raises(TypeError, match=r"^expand_dims: which axis\?"):
        x.expand_dims()
