"""The engine: graph shapes (reuse, diamonds), repeated backward, long chains, grad mode,
aliasing, dtypes, memory, and gradcheck itself."""

import gc
import weakref

import numpy as np
import pytest

import minigrad
import minigrad.functional as F
from minigrad import Function, GradcheckError, Tensor, gradcheck, no_grad, topological_order

pytestmark = pytest.mark.filterwarnings("error")      # no NaN or overflow warning anywhere


# ---- graph shapes -----------------------------------------------------------------------------

def test_tensor_used_twice_gets_both_gradients():
    x = Tensor([3.0], requires_grad=True)
    (x * x).backward(np.array([1.0]))
    np.testing.assert_array_equal(x.grad, [6.0])


def test_same_tensor_as_both_inputs_of_add():
    x = Tensor([1.0, 2.0], requires_grad=True)
    (x + x).sum().backward()
    np.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_diamond_graph():
    a = Tensor(2.0, requires_grad=True)
    b = a * 3.0                 # db/da = 3
    c = a ** 2                  # dc/da = 2a = 4
    d = b * c                   # d = 3a^3, dd/da = 9a^2 = 36
    d.backward()
    assert a.grad == 36.0


def test_deep_diamonds_count_every_path_once():
    x = Tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20):
        y = y + y               # 2^20 paths from x to y, each of slope 1
    y.backward()
    assert x.grad == 2.0 ** 20


def test_inputs_keep_argument_order_and_the_order_is_deterministic():
    a = Tensor(5.0, requires_grad=True, name="a")
    b = Tensor(2.0, requires_grad=True, name="b")
    y = b - a
    assert len(y.creator.inputs) == 2
    assert y.creator.inputs[0] is b and y.creator.inputs[1] is a
    y.backward()
    assert (a.grad, b.grad) == (-1.0, 1.0)

    def build():
        p = Tensor(1.0, requires_grad=True, name="p")
        q = Tensor(2.0, requires_grad=True, name="q")
        return ((p * q) + (q - p)).exp()

    orders = {tuple(t.name or type(t.creator).__name__ for t in topological_order(build()))
              for _ in range(5)}
    assert orders == {("p", "q", "Mul", "Sub", "Add", "Exp")}


def test_topological_order_puts_every_input_first():
    x = Tensor(np.ones(3), requires_grad=True)
    h = x.tanh()
    y = (h * x + h.exp() * h).sum()
    order = topological_order(y)
    position = {id(t): i for i, t in enumerate(order)}
    assert len(position) == len(order)               # no tensor twice
    for t in order:
        if t.creator is not None:
            for u in t.creator.inputs:
                assert position[id(u)] < position[id(t)]


def test_constants_get_no_gradient_and_are_not_walked():
    x = Tensor([1.0, 2.0], requires_grad=True)
    c = Tensor([3.0, 4.0])
    y = (x * c).sum()
    assert all(t is not c for t in topological_order(y))
    y.backward()
    assert c.grad is None
    np.testing.assert_array_equal(x.grad, [3.0, 4.0])


# ---- repeated backward ------------------------------------------------------------------------

def test_second_backward_doubles_leaf_gradients_exactly():
    x = Tensor([1.0, -2.0, 0.5], requires_grad=True)
    h = x * x                                   # an intermediate used twice
    loss = (h * x + h).sum()
    loss.backward()
    first = x.grad.copy()
    np.testing.assert_allclose(first, 3 * x.data ** 2 + 2 * x.data)
    loss.backward()
    np.testing.assert_array_equal(x.grad, 2 * first)
    assert h.grad is None and loss.grad is None      # intermediates keep no gradient


def test_zero_grad_starts_over():
    x = Tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    x.zero_grad()
    assert x.grad is None
    (x * 5).sum().backward()
    np.testing.assert_array_equal(x.grad, [5.0, 5.0])


def test_backward_from_a_leaf_and_with_an_upstream_gradient():
    x = Tensor(np.array([2.0]), requires_grad=True)
    x.backward()
    np.testing.assert_array_equal(x.grad, [1.0])
    y = Tensor(np.ones((2, 2)), requires_grad=True)
    upstream = np.array([[1.0, 2.0], [3.0, 4.0]])
    (y * 2).backward(upstream)
    np.testing.assert_array_equal(y.grad, 2 * upstream)
    upstream[0, 0] = 100.0                      # the engine kept its own copy
    assert y.grad[0, 0] == 2.0


# ---- long chains ------------------------------------------------------------------------------

def test_chain_of_100000_ops_backward_and_free():
    x = Tensor(np.array([1.0]), requires_grad=True)
    c = Tensor(np.array([1.00001]))
    y = x
    for _ in range(100_000):
        y = y * c
    first = weakref.ref(x.creator if x.creator else y.creator.inputs[0])
    y.backward(np.array([1.0]))
    np.testing.assert_allclose(x.grad, [1.00001 ** 100_000], rtol=1e-9)
    del y                                        # frees 100,000 tensors and ops in a row
    gc.collect()
    assert first() is None


# ---- grad mode --------------------------------------------------------------------------------

def test_no_grad_records_nothing_and_restores_the_mode():
    x = Tensor([1.0], requires_grad=True)
    assert minigrad.is_grad_enabled()
    with no_grad():
        assert not minigrad.is_grad_enabled()
        y = x * 2
        with no_grad():
            pass
        assert not minigrad.is_grad_enabled()    # the inner block restored "off", not "on"
    assert minigrad.is_grad_enabled()
    assert y.creator is None and not y.requires_grad
    np.testing.assert_array_equal(y.data, [2.0])


def test_one_no_grad_object_entered_twice():
    off = no_grad()
    with off:
        with off:
            pass
        assert not minigrad.is_grad_enabled()
    assert minigrad.is_grad_enabled()


def test_no_grad_restores_the_mode_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with no_grad():
            raise ZeroDivisionError
    assert minigrad.is_grad_enabled()


def test_no_grad_as_a_decorator_even_when_recursing():
    @no_grad()
    def countdown(x, n):
        assert not minigrad.is_grad_enabled()
        return x if n == 0 else countdown(x * 2, n - 1)

    x = Tensor([1.0], requires_grad=True)
    y = countdown(x, 3)
    assert minigrad.is_grad_enabled()
    assert y.creator is None and y.data[0] == 8.0
    assert countdown.__name__ == "countdown"


# ---- aliasing ---------------------------------------------------------------------------------

def test_leaf_gradients_never_alias_each_other():
    a = Tensor(np.zeros(3), requires_grad=True)
    b = Tensor(np.zeros(3), requires_grad=True)
    (a + b).backward(np.ones(3))                 # Add hands the same array to both inputs
    assert not np.shares_memory(a.grad, b.grad)
    a.grad += 1                                  # an optimiser updating in place
    np.testing.assert_array_equal(b.grad, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(a.grad, [2.0, 2.0, 2.0])


def test_leaf_gradient_is_its_own_writable_array():
    x = Tensor(np.ones((2, 3)), requires_grad=True)
    x.sum().backward()                           # Sum's backward is a broadcast view
    assert x.grad.flags.writeable and x.grad.flags.owndata
    x.grad[0, 0] = 5.0
    np.testing.assert_array_equal(x.grad.sum(), 10.0)


def test_second_backward_does_not_write_into_the_first_gradient():
    x = Tensor(np.ones(2), requires_grad=True)
    y = x * 3
    y.backward(np.ones(2))
    first = x.grad
    y.backward(np.ones(2))
    np.testing.assert_array_equal(first, [3.0, 3.0])
    np.testing.assert_array_equal(x.grad, [6.0, 6.0])


# ---- dtypes -----------------------------------------------------------------------------------

def test_what_becomes_float64_and_what_keeps_its_dtype():
    assert Tensor([1, 2]).dtype == np.float64
    assert Tensor(3).dtype == np.float64
    assert Tensor(np.arange(3)).dtype == np.int64
    assert Tensor(np.ones(2, np.float32)).dtype == np.float32
    assert Tensor(np.float32(1.0)).dtype == np.float32
    assert Tensor([1, 2], dtype=np.float32).dtype == np.float32


def test_float32_stays_float32_in_values_and_gradients():
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((4, 3)).astype(np.float32), requires_grad=True)
    w = Tensor(rng.standard_normal((3, 5)).astype(np.float32), requires_grad=True)
    h = (x @ w * 2.0 + 1).tanh().sigmoid() / 3 - 0.5
    h = F.concat([h, h.exp().log().relu().abs()], axis=1) ** 2
    h = F.softmax(h, axis=-1) + F.log_softmax(h[:, :4], axis=0).mean(axis=1, keepdims=True)
    loss = F.cross_entropy(h, np.array([0, 1, 2, 3])) + h.max() + (h * h + 1).sqrt().sum() * 0.1
    assert h.dtype == np.float32 and loss.dtype == np.float32
    loss.backward()
    assert x.grad.dtype == np.float32 and w.grad.dtype == np.float32


def test_float32_mixed_with_numpy_follows_numpy():
    x = Tensor(np.ones(2, np.float32), requires_grad=True)
    assert (x * 2).dtype == np.float32                          # a Python number is weak
    assert (2.5 - x).dtype == np.float32
    assert (x * np.float32(2)).dtype == np.float32
    y = x * np.ones(2)                                          # a float64 array wins
    assert y.dtype == np.float64
    y.sum().backward()
    assert x.grad.dtype == np.float32                           # the gradient keeps x's dtype


def test_comparisons_return_plain_boolean_arrays():
    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    for result in (x > 2, x <= 2.0, x == Tensor([1.0, 0.0, 3.0]), np.array([2.0, 2, 2]) < x,
                   x != 1, x >= np.float32(3)):
        assert type(result) is np.ndarray and result.dtype == bool
    np.testing.assert_array_equal(np.array([2.0, 2, 2]) < x, [False, False, True])
    np.testing.assert_array_equal(2 > x, [True, False, False])


def test_numpy_functions_refuse_tensors_instead_of_making_object_arrays():
    with pytest.raises(TypeError):
        np.exp(Tensor([1.0]))


# ---- memory -----------------------------------------------------------------------------------

def test_graph_is_freed_when_its_root_is_gone():
    x = Tensor(np.ones(1000), requires_grad=True)
    h = x.tanh()
    loss = (h * h).sum()
    op, hidden = weakref.ref(h.creator), weakref.ref(h)
    loss.backward()
    del h
    assert hidden() is not None                  # the graph still holds it
    del loss
    assert hidden() is None and op() is None     # by reference counting, without gc


def test_training_loop_does_not_leak():
    w = Tensor(np.ones((50, 50)), requires_grad=True)
    x = Tensor(np.ones((8, 50)))
    graphs = []
    for _ in range(50):
        hidden = (x @ w).tanh()
        loss = (hidden ** 2).mean()
        loss.backward()
        graphs.append((weakref.ref(loss), weakref.ref(hidden), weakref.ref(hidden.creator)))
        w.data -= 0.1 * w.grad
        w.zero_grad()
    del loss, hidden                       # only the last graph was still reachable
    assert all(ref() is None for refs in graphs for ref in refs)


class Recorded(Function):
    """y = 2 x, remembering (weakly) every instance, to see which ops stay alive."""
    instances = weakref.WeakSet()
    saves = ("x",)

    def forward(self, x):
        Recorded.instances.add(self)
        self.x = x
        return 2 * x

    def backward(self, grad_y):
        return (2 * grad_y,)


def test_no_grad_keeps_no_op_alive():
    x = Tensor(np.ones(3), requires_grad=True)
    with no_grad():
        y = Recorded()(x)
    assert y.creator is None and len(Recorded.instances) == 0
    z = Recorded()(x)
    assert len(Recorded.instances) == 1 and z.creator in Recorded.instances


# ---- custom ops and the engine's checks -------------------------------------------------------

def test_an_op_may_return_none_for_an_input_and_numpy_scalars():
    class ScaleBy(Function):
        """y = a * b, but only a gets a gradient."""

        saves = ("b",)

        def forward(self, a, b):
            self.b = b
            return a * b

        def backward(self, grad_y):
            return grad_y * self.b, None

    a = Tensor(2.0, requires_grad=True)
    b = Tensor(3.0, requires_grad=True)
    ScaleBy()(a, b).backward()
    assert a.grad == 3.0 and b.grad is None
    assert type(a.grad) is np.ndarray


def test_op_repr_shows_settings():
    x = Tensor(np.ones((2, 3)), requires_grad=True)
    assert repr(x.sum(axis=1).creator) == "Sum(axis=1, keepdims=False)"
    assert "creator=Sum" in repr(x.sum(axis=1))


# ---- gradcheck --------------------------------------------------------------------------------

def test_gradcheck_catches_a_backward_that_ignores_the_upstream_gradient():
    class Forgetful(Function):
        saves = ("x",)

        def forward(self, x):
            self.x = x
            return x * x

        def backward(self, grad_y):
            return (2 * self.x,)                 # bug: not multiplied by grad_y

    x = Tensor(np.array([0.5, -1.0, 2.0]), requires_grad=True, name="x")
    with pytest.raises(GradcheckError) as error:
        gradcheck(lambda x: Forgetful()(x), x)
    message = str(error.value)
    for part in ("input 0", "'x'", "element (", "analytic", "numeric", "largest error"):
        assert part in message


def test_gradcheck_restores_inputs_and_gradients():
    rng = np.random.default_rng(0)
    data = rng.standard_normal((3, 4)).T            # not contiguous: checked element by element
    x = Tensor(data, requires_grad=True)
    before = x.data.copy()
    x.grad = np.full((4, 3), 7.0)
    assert gradcheck(lambda x: (x * x).sum(axis=0), x)
    np.testing.assert_array_equal(x.data, before)
    np.testing.assert_array_equal(x.grad, 7.0)


def test_gradcheck_wants_float64():
    x = Tensor(np.ones(2, np.float32), requires_grad=True)
    with pytest.raises(TypeError, match="float64"):
        gradcheck(lambda x: x * 2, x)
