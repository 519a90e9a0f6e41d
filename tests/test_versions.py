"""Version counters, always on: an array saved for backward and changed in place through a tensor
is an error naming the op and the tensor; what no op saved, a new array, and steps after backward
are not. The in-place operators follow PyTorch's rules, and agree with PyTorch on what raises."""

import operator as op

import numpy as np
import pytest

from minigrad import Tensor, debug, nn, no_grad, optim, versions
from minigrad.debug import SavedArrayError

pytestmark = pytest.mark.filterwarnings("error")


def product():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    w = Tensor([3.0, 4.0], requires_grad=True, name="w")
    return x, w, (x * w).sum()


# ---- the check in backward --------------------------------------------------------------------

def test_an_input_changed_in_place_through_data_is_an_error_naming_mul_and_the_input():
    x, w, y = product()
    w.data -= 1                                 # the very array Mul saved as self.b
    with pytest.raises(SavedArrayError) as error:
        y.backward()
    message = str(error.value)
    assert isinstance(error.value, RuntimeError)
    assert message.startswith("Mul.backward would use self.b, an array saved for backward: the "
                              "data of input 1, 'w' (a leaf, shape (2,)), changed in place after "
                              "the forward.")
    assert "x = x - 1, not x.data -= 1" in message
    assert x.grad is None and w.grad is None    # stopped before a wrong gradient was added


def test_the_site_that_created_the_op_is_named_when_a_debugger_aid_noted_it():
    x = Tensor([1.0, 2.0], requires_grad=True)
    with debug.detect_anomaly():
        y = (x * x).sum()                       # the line named in the message
    x.data *= 2
    with pytest.raises(SavedArrayError, match=r"(?s)input 0, unnamed \(a leaf.*created at "
                                              r".*test_versions.py:\d+.*y = \(x \* x\)\.sum\(\)"):
        y.backward()


@pytest.mark.parametrize("op", ["tanh", "sigmoid", "exp"])
def test_an_output_saved_by_its_op_and_changed_in_place_is_caught(op):
    x = Tensor([0.5, -1.0], requires_grad=True)
    y = getattr(x, op)()                        # these ops save their output, y's array
    loss = y.sum()                              # Sum saves only the shape
    y.data *= 2
    name = {"tanh": "Tanh", "sigmoid": "Sigmoid", "exp": "Exp"}[op]
    with pytest.raises(SavedArrayError, match=rf"{name}.backward would use self.y, .* the data of "
                                              rf"its output, unnamed \(made by {name}, shape "):
        loss.backward()


def test_an_input_the_op_did_not_save_may_change_as_in_pytorch():
    x = Tensor([0.5, -1.0], requires_grad=True)
    y = x.tanh()                                # Tanh saved y, not x
    z = x + 1.0                                 # Add saved only shapes
    x_before = x.data.copy()
    with no_grad():
        x -= 10.0
    (y.sum() + z.sum()).backward()
    np.testing.assert_allclose(x.grad, 1 - np.tanh(x_before) ** 2 + 1)


def test_rebinding_data_to_a_new_array_is_no_change_and_the_gradient_is_the_forwards():
    x, w, y = product()
    version = w._version
    w.data = w.data - 1                         # a new array; Mul's saved one is untouched
    assert w._version == version
    y.backward()
    np.testing.assert_array_equal(x.grad, [3.0, 4.0])       # at the values the forward used
    np.testing.assert_array_equal(w.data, [2.0, 3.0])


def test_a_change_made_after_backward_is_fine_and_a_second_backward_through_it_is_not():
    rng = np.random.default_rng(0)
    model = nn.Linear(3, 2).double()
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = Tensor(rng.standard_normal((4, 3)))
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = (model(x) ** 2).mean()
        loss.backward()
        opt.step()                              # in place, while `loss`'s graph is alive
        losses.append(loss.item())
    assert losses[-1] < losses[0]
    with pytest.raises(SavedArrayError, match=r"MatMul.backward would use self.b, .*input 1, "
                                              r"unnamed \(made by Transpose, shape \(3, 2\)\), "
                                              r"a view of unnamed \(a leaf, shape \(2, 3\)\)"):
        loss.backward()                         # this one would run through the stepped weight


def test_adam_steps_move_the_version_and_a_second_backward_after_one_is_caught():
    model = nn.Linear(2, 1).double()
    opt = optim.Adam(model.parameters(), lr=0.01)
    loss = model(Tensor(np.ones((1, 2)))).sum() ** 2
    loss.backward()
    before = [p._version for p in model.parameters()]
    opt.step()
    assert all(p._version > v for p, v in zip(model.parameters(), before))
    with pytest.raises(SavedArrayError):
        loss.backward()


def test_an_unrelated_change_takes_the_slow_path_and_raises_nothing():
    x, w, y = product()
    spare = Tensor([0.0])
    spare += 1.0                                # the clock moves, but nothing Mul saved changed
    assert y.creator.recorded_at != versions.clock
    y.backward()
    y.backward()
    np.testing.assert_array_equal(x.grad, [6.0, 8.0])


def test_what_only_the_guard_sees_writes_that_bypass_the_tensor():
    x, w, y = product()
    w.data[0] = 10.0                            # NumPy's __setitem__: no version moves
    assert w._version == 0
    y.backward()                                # not seen by default (documented)
    x, w, y = product()
    with debug.guard_saved():
        y = (x * w).sum()
        w.data[0] = 10.0
        with pytest.raises(SavedArrayError, match="Mul.backward would use self.b"):
            y.backward()


def test_module_to_the_same_dtype_changes_nothing_and_another_dtype_rebinds():
    model = nn.Linear(2, 2).double()
    loss = model(Tensor(np.ones((1, 2)))).sum()
    model.to(np.float64)                        # the same dtype: arrays untouched
    assert all(p._version == 0 for p in model.parameters())
    loss.backward()
    model.float()
    assert all(p.dtype == np.float32 and p._version == 0 for p in model.parameters())


# ---- in-place operators -----------------------------------------------------------------------

def test_an_update_under_no_grad_changes_the_parameter_the_model_holds():
    model = nn.Linear(2, 1).double()
    model(Tensor(np.ones((3, 2)))).sum().backward()
    p = model.weight
    expected = p.data - 0.5 * p.grad
    array, version = p.data, p._version
    with no_grad():
        p -= 0.5 * p.grad
    assert model.weight is p and p.data is array            # the same object, the same array
    np.testing.assert_array_equal(model.weight.data, expected)
    assert p._version > version and p.requires_grad and p.creator is None


@pytest.mark.parametrize("operator, expected", [(op.iadd, [3.0, 4.0]), (op.isub, [-1.0, 0.0]),
                                                (op.imul, [2.0, 4.0]), (op.itruediv, [0.5, 1.0])])
def test_each_operator_changes_a_tensor_that_needs_no_grad_in_place(operator, expected):
    t = Tensor([1.0, 2.0])
    array = t.data
    assert operator(t, 2.0) is t and t.data is array and t._version > 0
    np.testing.assert_array_equal(t.data, expected)


def test_a_leaf_that_requires_grad_cannot_change_in_place_while_the_graph_is_recorded():
    w = Tensor([1.0, 2.0], requires_grad=True, name="w")
    with pytest.raises(RuntimeError, match=r"'w' \(a leaf, shape \(2,\)\) -= \.\.\.: a leaf that "
                                           r"requires grad cannot be changed in place .*no_grad"):
        w -= 1.0
    np.testing.assert_array_equal(w.data, [1.0, 2.0])
    assert w._version == 0


def test_in_the_graph_an_in_place_operator_makes_a_new_recorded_tensor():
    x = Tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    old = h
    h += x                                      # a non-leaf: h = h + x, recorded
    assert h is not old and type(h.creator).__name__ == "Add"
    np.testing.assert_array_equal(old.data, [3.0, 6.0])
    acc = Tensor([0.0, 0.0])
    acc += h                                    # the right-hand side requires grad
    assert acc.requires_grad and acc.creator is not None
    acc.sum().backward()
    np.testing.assert_array_equal(x.grad, [4.0, 4.0])


def test_a_tensor_an_op_saved_and_changed_in_place_under_no_grad_is_caught():
    w = Tensor([1.0, 2.0], requires_grad=True)
    x = Tensor([3.0, 4.0])                      # needs no grad: in place even with grad on
    y = (x * w).sum()                           # Mul saved x's array for dL/dw
    x *= 2
    with pytest.raises(SavedArrayError, match=r"Mul.backward would use self.a, .*input 0, "
                                              r"unnamed \(a leaf, shape \(2,\)\)"):
        y.backward()


def test_in_place_keeps_dtype_and_shape_and_says_what_is_wrong_otherwise():
    t = Tensor(np.ones(2, dtype=np.float32))
    t -= np.array([0.5, 0.25])
    version = t._version                  # float64 into float32: same kind, kept
    assert t.dtype == np.float32
    np.testing.assert_array_equal(t.data, [0.5, 0.75])
    ids = Tensor(np.array([1, 2]))
    with pytest.raises(TypeError, match=r"unnamed \(a leaf, shape \(2,\)\) \+= a value of shape "
                                        r"\(\), float.*keeps the tensor's shape and dtype"):
        ids += 0.5
    with pytest.raises(ValueError, match=r"shape \(2,\)\) \*= a value of shape \(3, 2\), float64"):
        t *= np.ones((3, 2))
    np.testing.assert_array_equal(ids.data, [1, 2])
    assert ids._version == 0 and t._version == version     # failed attempts move nothing


# ---- the same rules as PyTorch -----------------------------------------------------------------

def scenario(lib, name):
    """Build a graph, change something in place, run backward; True if it raised."""
    if lib == "torch":
        import torch
        tensor = lambda v, g=True: torch.tensor(v, dtype=torch.float64, requires_grad=g)  # noqa: E731
        grad_off, errors = torch.no_grad, RuntimeError
    else:
        tensor = lambda v, g=True: Tensor(v, requires_grad=g)                            # noqa: E731
        grad_off, errors = no_grad, SavedArrayError
    x, w = tensor([1.0, 2.0]), tensor([3.0, 4.0])
    if name == "mul, an input":
        y, target = (x * w).sum(), w
    elif name == "add, an input":
        y, target = (x + w).sum(), w
    elif name == "tanh, its input":
        y, target = x.tanh().sum(), x
    else:                                       # "tanh, its output"
        target = (x * 1.0).tanh()
        y = target.sum()
    with grad_off():
        target -= 1.0
    try:
        y.backward()
    except errors:
        return True
    return False


@pytest.mark.parametrize("name", ["mul, an input", "add, an input", "tanh, its input",
                                  "tanh, its output"])
def test_what_raises_agrees_with_pytorch(name):
    pytest.importorskip("torch")
    assert scenario("minigrad", name) == scenario("torch", name)
    assert scenario("minigrad", name) == (name in ("mul, an input", "tanh, its output"))


# ---- views: the check compares memory, not tensors ---------------------------------------------

@pytest.mark.parametrize("view", ["detach", "transpose", "getitem", "new tensor on the array"])
def test_a_change_through_another_tensor_that_shares_the_array_is_caught(view):
    x = Tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True, name="x")
    w = Tensor([[3.0, 4.0], [5.0, 6.0]], requires_grad=True, name="w")
    y = (x * w).sum()
    other = {"detach": lambda: w.detach(), "transpose": lambda: w.T,
             "getitem": lambda: w[0], "new tensor on the array": lambda: Tensor(w.data)}[view]()
    with no_grad():
        other -= 1.0
    assert w._version == 0                      # w itself was not touched, its array was
    with pytest.raises(SavedArrayError, match=r"Mul.backward would use self.b, .*input 1, 'w'"):
        y.backward()


def test_a_change_through_a_view_counts_for_the_whole_array_as_in_pytorch():
    """A change through a view is noted on the array it views (which outlives the view), so
    a change to another part of that array counts too: PyTorch's views share one version
    counter with their base, and raise here as well."""
    base = Tensor(np.arange(8.0).reshape(2, 4), requires_grad=True)
    left, right = base[:, :2], base[:, 2:]
    y = (left * left).sum()                     # Mul saves left's view
    with no_grad():
        right *= 0.0
    with pytest.raises(SavedArrayError, match="Mul.backward would use self.a"):
        y.backward()


def test_the_note_of_a_changed_array_goes_with_the_array():
    t = Tensor(np.zeros(3))
    t += 1.0
    key = id(t.data)
    assert versions.changed[key][0] == t._version
    t += 1.0
    assert list(versions.changed)[-1] == key    # one entry per array, newest last
    del t
    assert key not in versions.changed


def test_loading_a_state_dict_between_forward_and_backward_replaces_arrays_and_raises_nothing():
    model = nn.Linear(2, 1).double()
    x = Tensor(np.array([[1.0, 2.0]]))
    old = model.weight.data.copy()
    loss = model(x).sum()
    model.load_state_dict({"weight": np.zeros((1, 2)), "bias": np.zeros(1)})
    loss.backward()                             # the gradient of the forward that ran
    np.testing.assert_array_equal(model.weight.grad, [[1.0, 2.0]])
    np.testing.assert_array_equal(model.weight.data, [[0.0, 0.0]])
    assert not np.array_equal(old, model.weight.data) and model.weight._version == 0
