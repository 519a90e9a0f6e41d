"""Every op that PyTorch also has: the same inputs through both, then the outputs and every
gradient (from one random upstream gradient) compared. Skipped where PyTorch is not installed."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def compare(mg_fn, torch_fn, *arrays, grad_of=None, rtol=1e-10, atol=1e-12):
    """Run `mg_fn` on minigrad tensors and `torch_fn` on PyTorch tensors made from the same
    float64 `arrays`; compare the outputs and the gradients of every input in `grad_of`
    (default: all) under one random upstream gradient per output."""
    grad_of = range(len(arrays)) if grad_of is None else grad_of
    mg_inputs = [Tensor(a.copy(), requires_grad=i in grad_of) for i, a in enumerate(arrays)]
    torch_inputs = [torch.tensor(a, requires_grad=i in grad_of) for i, a in enumerate(arrays)]
    mg_out, torch_out = _as_tuple(mg_fn(*mg_inputs)), _as_tuple(torch_fn(*torch_inputs))
    assert len(mg_out) == len(torch_out)
    rng = np.random.default_rng(1)
    upstream = [rng.standard_normal(out.shape) for out in mg_out]
    for mine, theirs in zip(mg_out, torch_out):
        assert mine.shape == tuple(theirs.shape)
        np.testing.assert_allclose(mine.data, theirs.detach().numpy(), rtol=rtol, atol=atol)
    sum(((out * Tensor(r)).sum() for out, r in zip(mg_out, upstream)), Tensor(0.0)).backward()
    torch.autograd.backward(torch_out, [torch.tensor(r) for r in upstream])
    for i in grad_of:
        np.testing.assert_allclose(mg_inputs[i].grad, torch_inputs[i].grad.numpy(),
                                   rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


def _as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# ---- arithmetic -------------------------------------------------------------------------------

@pytest.mark.parametrize("a_shape, b_shape", [((2, 3), (2, 3)), ((4, 1, 3), (2, 3)), ((), (3,))])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "pow"])
def test_binary_ops(rng, op, a_shape, b_shape):
    a = rng.uniform(0.5, 2.0, a_shape)
    b = rng.uniform(0.5, 2.0, b_shape)
    fn = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
          "div": lambda a, b: a / b, "pow": lambda a, b: a ** b}[op]
    compare(fn, fn, a, b)


@pytest.mark.parametrize("op", [lambda x: 3.0 - x, lambda x: 2.0 / x, lambda x: x ** 3,
                                lambda x: x ** 0.5, lambda x: 2.0 ** x, lambda x: -x])
def test_ops_with_numbers(rng, op):
    compare(op, op, rng.uniform(0.5, 2.0, (3, 4)))


@pytest.mark.parametrize("a_shape, b_shape", [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)),
                                              ((3,), (3,)), ((5, 2, 3), (3, 4)),
                                              ((5, 1, 2, 3), (4, 3, 2))])
def test_matmul(rng, a_shape, b_shape):
    compare(lambda a, b: a @ b, lambda a, b: a @ b,
            rng.standard_normal(a_shape), rng.standard_normal(b_shape))


# ---- elementwise ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs"])
def test_elementwise(rng, name):
    x = rng.uniform(0.1, 3.0, (3, 4)) if name in ("log", "sqrt") else rng.standard_normal((3, 4))
    x[0, :2] = [-1e3, 1e3] if name in ("sigmoid", "tanh") else x[0, :2]
    x[1, 0] = 0.0 if name in ("relu", "abs") else x[1, 0]          # PyTorch passes 0 at 0
    compare(lambda t: getattr(t, name)(), lambda t: getattr(t, name)(), x)


def test_clip(rng):
    x = rng.standard_normal((4, 5))
    x[0, 0], x[0, 1] = -0.5, 0.5                                  # on the bounds: inside
    compare(lambda t: t.clip(-0.5, 0.5), lambda t: t.clamp(-0.5, 0.5), x)
    compare(lambda t: F.clip(t, None, 0.2), lambda t: t.clamp(max=0.2), x)


def test_where(rng):
    cond = rng.random((3, 4)) > 0.5
    compare(lambda a, b: F.where(cond, a, b), lambda a, b: torch.where(torch.tensor(cond), a, b),
            rng.standard_normal((3, 4)), rng.standard_normal((4,)))


# ---- reductions -------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_and_mean(rng, axis, keepdims):
    x = rng.standard_normal((2, 3, 4))
    dim = () if axis is None else axis
    compare(lambda t: t.sum(axis, keepdims), lambda t: t.sum(dim=dim, keepdim=keepdims), x)
    compare(lambda t: t.mean(axis, keepdims), lambda t: t.mean(dim=dim, keepdim=keepdims), x)


@pytest.mark.parametrize("axis", [None, 1, -1, (0, 1)])
@pytest.mark.parametrize("name, torch_name", [("max", "amax"), ("min", "amin")])
def test_max_and_min_with_ties(axis, name, torch_name):
    x = np.array([[[1.0, 4.0], [4.0, 0.0], [2.0, 2.0]], [[-1.0, -1.0], [3.0, -5.0], [3.0, 0.5]]])
    dim = () if axis is None else axis
    compare(lambda t: getattr(t, name)(axis), lambda t: getattr(t, torch_name)(dim=dim), x)
    compare(lambda t: getattr(t, name)(axis, keepdims=True),
            lambda t: getattr(t, torch_name)(dim=dim, keepdim=True), x)


# ---- shapes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mg_fn, torch_fn", [
    (lambda t: t.reshape(4, 6), lambda t: t.reshape(4, 6)),
    (lambda t: t.transpose(2, 0, 1), lambda t: t.permute(2, 0, 1)),
    (lambda t: t.transpose(-1, 0, 1), lambda t: t.permute(-1, 0, 1)),
    (lambda t: t.swapaxes(0, 2), lambda t: t.transpose(0, 2)),
    (lambda t: t.T, lambda t: t.permute(2, 1, 0)),
    (lambda t: t.expand_dims(1), lambda t: t.unsqueeze(1)),
    (lambda t: t.expand_dims(0).squeeze(0), lambda t: t.unsqueeze(0).squeeze(0)),
])
def test_shape_ops(rng, mg_fn, torch_fn):
    compare(mg_fn, torch_fn, rng.standard_normal((2, 3, 4)))


@pytest.mark.parametrize("index", [
    1, (slice(None), -1), (slice(1, None), None, slice(None, None, 2)), (Ellipsis, 0),
    np.array([0, 1, 0, 0]), (np.array([1, 1, 0]), slice(None), np.array([2, 2, 3])),
    np.array([[True, False, True], [False, False, True]]),
])
def test_getitem(rng, index):
    torch_index = tuple(torch.tensor(i) if isinstance(i, np.ndarray) else i
                        for i in (index if isinstance(index, tuple) else (index,)))
    compare(lambda t: t[index], lambda t: t[torch_index], rng.standard_normal((2, 3, 4)))


def test_concat_stack_split(rng):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 5))
    compare(lambda a, b: F.concat([a, b], axis=1), lambda a, b: torch.cat([a, b], dim=1), a, b)
    compare(lambda a, b: F.stack([a, b[:, :3]], axis=1),
            lambda a, b: torch.stack([a, b[:, :3]], dim=1), a, b)
    compare(lambda b: F.split(b, [2, 3], axis=1), lambda b: torch.split(b, [2, 1, 2], dim=1), b)


# ---- softmax family, embedding ----------------------------------------------------------------

@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_and_log_softmax(rng, axis):
    x = rng.standard_normal((3, 4, 5)) * 3
    compare(lambda t: F.softmax(t, axis), lambda t: torch.softmax(t, dim=axis), x)
    compare(lambda t: F.log_softmax(t, axis), lambda t: torch.log_softmax(t, dim=axis), x)


def test_softmax_with_huge_and_masked_logits():
    x = np.array([[1e4, -1e4, 0.0], [5.0, -np.inf, 1.0]])
    compare(lambda t: F.softmax(t), lambda t: torch.softmax(t, dim=-1), x)
    compare(lambda t: F.log_softmax(t)[:, ::2], lambda t: torch.log_softmax(t, dim=-1)[:, ::2], x)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy(rng, reduction):
    logits = rng.standard_normal((6, 5)) * 2
    targets = np.array([0, 4, 4, 1, 2, 3])
    compare(lambda z: F.cross_entropy(z, targets, reduction=reduction),
            lambda z: TF.cross_entropy(z, torch.tensor(targets), reduction=reduction), logits)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_over_a_sequence_with_ignore_index(rng, reduction):
    logits = rng.standard_normal((2, 4, 5))                   # (B, T, C): classes last here
    targets = np.array([[1, 0, -1, -1], [4, 4, 2, -1]])
    compare(lambda z: F.cross_entropy(z, targets, ignore_index=-1, reduction=reduction),
            lambda z: TF.cross_entropy(z.permute(0, 2, 1), torch.tensor(targets), ignore_index=-1,
                                       reduction=reduction), logits)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("eps", [0.1, 1.0])
def test_label_smoothed_cross_entropy_with_ignore_index(rng, reduction, eps):
    logits = rng.standard_normal((2, 4, 5)) * 2               # (B, T, C): classes last here
    targets = np.array([[1, 0, -1, 3], [4, 4, 2, -1]])
    compare(lambda z: F.cross_entropy(z, targets, ignore_index=-1, reduction=reduction,
                                      label_smoothing=eps),
            lambda z: TF.cross_entropy(z.permute(0, 2, 1), torch.tensor(targets), ignore_index=-1,
                                       reduction=reduction, label_smoothing=eps), logits)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu(rng, approximate):
    x = rng.standard_normal((4, 6)) * 3
    compare(lambda t: F.gelu(t, approximate), lambda t: TF.gelu(t, approximate=approximate), x)


def test_embedding(rng):
    ids = np.array([[0, 3, 3], [2, 0, 3]])
    compare(lambda w: F.embedding(w, ids, padding_idx=0),
            lambda w: TF.embedding(torch.tensor(ids), w, padding_idx=0),
            rng.standard_normal((4, 3)))


def test_float32_matches_in_float32(rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    w = rng.standard_normal((4, 2)).astype(np.float32)
    mx, mw = Tensor(x, requires_grad=True), Tensor(w, requires_grad=True)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    mine = F.softmax((mx @ mw).tanh() * 2.0, axis=0).sum(axis=1)
    theirs = torch.softmax((tx @ tw).tanh() * 2.0, dim=0).sum(dim=1)
    assert mine.dtype == np.float32
    np.testing.assert_allclose(mine.data, theirs.detach().numpy(), rtol=1e-5)
    mine.backward(np.array([1.0, -2.0, 0.5], dtype=np.float32))
    theirs.backward(torch.tensor([1.0, -2.0, 0.5]))
    assert mx.grad.dtype == np.float32
    np.testing.assert_allclose(mx.grad, tx.grad.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(mw.grad, tw.grad.numpy(), rtol=1e-4, atol=1e-6)
