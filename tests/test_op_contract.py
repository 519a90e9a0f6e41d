"""The op contract and the one backward walk: what an op declares (`settings`, `saves`), what
it is told (`needs_input_grad`), one call per instance, and every tool reading the engine's walk."""

import numpy as np
import pytest

import minigrad
import minigrad.functional as F
from minigrad import Function, GradcheckError, Tensor, debug, gradcheck, nn
from minigrad.autograd import backward_walk
from minigrad.gradcheck import undeclared
from minigrad.nn import fused_layer_norm, fused_lstm
from minigrad.ops import arithmetic, elementwise, embedding_and_dropout, shapes
from minigrad.viz import draw_graph
from minigrad.viz.walk import gradients


def t(*shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape) + 2.0, requires_grad=True)


def every_op():
    """One call of every op in minigrad, made through its public function or method."""
    a, b, m = t(2, 3), t(2, 3, seed=1), t(3, 4, seed=2)
    ids = np.array([[0, 2], [1, 1]])
    mask = np.array([[True, True, False], [True, False, False]])
    outputs = [a + b, a - b, a * b, a / b, -a, a ** b, a ** 2, a @ m,
               a.exp(), a.log(), a.sqrt(), a.tanh(), a.sigmoid(), a.relu(), F.gelu(a),
               elementwise.abs(a), fused_layer_norm.fused_layer_norm(a, t(3), t(3, seed=3)),
               a.clip(2.0, 3.0), elementwise.where(a.data > 2, a, b),
               a.sum(axis=1), a.mean(axis=0), a.max(axis=1), a.min(),
               a.reshape(3, 2), a.transpose(), a[0, 1:], shapes.concat([a, b], axis=1),
               shapes.stack([a, b]), F.softmax(a), F.log_softmax(a),
               F.cross_entropy(a, np.array([0, 2])),
               embedding_and_dropout.embedding(m, ids, padding_idx=1),
               F.dropout(a, 0.5, training=True)]
    h, _ = fused_lstm.fused_lstm_cell(t(2, 3), (t(2, 4), t(2, 4)), t(16, 3), t(16, 4), t(16),
                                      t(16))
    out, _ = fused_lstm.fused_lstm(t(2, 3, 3), (t(2, 4), t(2, 4)), t(16, 3), t(16, 4), t(16),
                                   t(16), mask=mask)
    outputs += [h.creator.inputs[0], out.creator.inputs[0]]      # h_c[0]: the op's output
    return [out.creator for out in outputs]


def all_op_classes(base=Function):
    found = []
    for cls in base.__subclasses__():
        if cls.__module__.startswith("minigrad.") and not cls.__module__.startswith(
                "minigrad.grade"):
            found.append(cls)
        found += all_op_classes(cls)
    return found


def test_every_op_of_minigrad_is_in_the_table():
    covered = {type(op) for op in every_op()}
    missing = [cls.__name__ for cls in all_op_classes() if cls not in covered]
    assert not missing, f"add these ops to every_op(): {missing}"


def test_every_op_declares_exactly_what_it_keeps():
    for op in every_op():
        assert undeclared(op) == [], f"{type(op).__name__} keeps {undeclared(op)} undeclared"
        for name in op.settings + op.saves:
            assert hasattr(op, name), f"{type(op).__name__} declares {name} but never keeps it"


def test_settings_show_in_the_repr_by_their_declared_names():
    x = t(2, 3)
    assert repr(F.softmax(x, axis=0).creator) == "Softmax(axis=0)"
    assert repr(x.clip(0.0, 1.0).creator) == "Clip(low=0.0, high=1.0)"
    assert repr((x * 2).creator) == "Mul()"


def test_gradcheck_names_an_array_an_op_keeps_without_declaring_it():
    class Square(Function):
        def forward(self, x):
            self.x = x                          # kept, but `saves` does not say so
            return x * x

        def backward(self, grad_y):
            return (2 * self.x * grad_y,)

    with pytest.raises(GradcheckError, match=r"Square keeps self.x but declares it neither in "
                                             r"`settings` nor in `saves`; add it to one: "
                                             r"`saves = \('x',\)`"):
        gradcheck(lambda x: Square()(x), t(3))
    Square.saves = ("x",)
    assert gradcheck(lambda x: Square()(x), t(3))


# ---- one call per instance ---------------------------------------------------------------------

def test_calling_an_op_instance_twice_is_an_error():
    a, b = Tensor(2.0, requires_grad=True), Tensor(3.0, requires_grad=True)
    c, d = Tensor(7.0, requires_grad=True), Tensor(5.0, requires_grad=True)
    op = arithmetic.Mul()
    y1 = op(a, b)
    with pytest.raises(RuntimeError, match=r"Mul\(\) was called a second time; an op instance is "
                                           r"one call .* make a new Mul\(...\) for each call"):
        op(c, d)
    y1.backward()
    assert a.grad == 3.0 and b.grad == 2.0 and c.grad is None


# ---- needs_input_grad ----------------------------------------------------------------------------

def test_each_op_is_told_which_inputs_need_a_gradient():
    x, constant = t(2, 3), Tensor(np.ones((3, 4)))
    y = x @ constant
    assert y.creator.needs_input_grad == (True, False)
    with minigrad.no_grad():
        z = x @ constant
    assert z.creator is None


def sent_back(y, kind):
    """What the first op of class `kind` sent to its inputs in the walk from y.sum()."""
    return next(grads for out, _, grads in backward_walk(y.sum())
                if grads is not None and type(out.creator).__name__ == kind)


def test_backward_skips_the_work_for_a_constant_input():
    x, constant = t(2, 3), Tensor(np.full((3, 4), 2.0))
    grad_x, grad_constant = sent_back(x @ constant, "MatMul")
    assert grad_constant is None and grad_x.shape == (2, 3)
    assert sent_back(constant[:2, :3] / x, "Div")[0] is None          # the constant numerator
    op = (constant[:2, :3] * x).creator
    grad_constant, grad_x = op.backward(np.ones((2, 3)))                # the op itself skips it
    assert grad_constant is None and np.array_equal(grad_x, constant.data[:2, :3])
    mask = np.array([[True, False, True]])                             # masking scores by -inf:
    op = F.where(mask, x, Tensor(np.array(-np.inf))).creator            # the -inf gets nothing
    grad_x, grad_masked = op.backward(np.ones((2, 3)))
    assert grad_masked is None and np.array_equal(grad_x, np.broadcast_to(mask, (2, 3)))


def test_the_fused_lstm_computes_no_gradient_for_a_constant_sequence():
    minigrad.manual_seed(0)
    lstm = nn.LSTM(3, 4, fused=True)
    x = Tensor(np.random.default_rng(0).standard_normal((2, 5, 3)), dtype=np.float32)  # data
    out, _ = lstm(x)
    walk = [(t_, grads) for t_, _, grads in backward_walk(out.sum()) if grads is not None]
    fused = [grads for t_, grads in walk if type(t_.creator).__name__ == "FusedLSTM"]
    assert fused and fused[0][0] is None and fused[0][3] is not None     # x: none; weight_ih
    out.sum().backward()
    assert all(p.grad is not None for p in lstm.parameters())


# ---- one walk ------------------------------------------------------------------------------------

def hooked_graph():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    y = x * 3.0
    y.name = "y"
    y.register_hook(lambda g: g * 10)
    h = y * y
    h.name = "h"
    h.retain_grad()
    return x, y, h, h.sum()


def test_the_drawings_gradients_are_backwards_with_hooks_and_retain_grad():
    x, y, h, loss = hooked_graph()
    drawn = gradients(loss)
    loss.backward()
    assert np.array_equal(x.grad, [180.0, 360.0])        # 2y * 10 * 3
    assert np.array_equal(drawn.of_tensor[id(x)], x.grad)
    assert np.array_equal(drawn.of_tensor[id(h)], h.grad)
    assert np.array_equal(drawn.of_tensor[id(y)], [60.0, 120.0])   # after the hook
    source = draw_graph(loss).source
    assert "180" in source and "360" in source


def test_the_walk_writes_no_grad_and_the_steps_keep_what_backward_keeps():
    x, y, h, loss = hooked_graph()
    seen = list(backward_walk(loss))
    assert x.grad is None and h.grad is None
    assert [t_ for t_, _, _ in seen] == [loss, h, y, x]
    steps = list(debug.backward_steps(loss))
    assert [type(s.op).__name__ for s in steps] == ["Sum", "Mul", "Mul"]
    assert np.array_equal(x.grad, [180.0, 360.0]) and np.array_equal(h.grad, [1.0, 1.0])


def test_the_drawing_and_backward_give_the_same_error_for_the_same_mistake():
    x = t(3)
    y = x * 2
    with pytest.raises(RuntimeError, match="not a single number") as from_backward:
        y.backward()
    with pytest.raises(RuntimeError, match="not a single number") as from_drawing:
        draw_graph(y, backward_order=True)
    assert str(from_backward.value) == str(from_drawing.value)
    with pytest.raises(ValueError, match=r"grad has shape \(2,\), the root has shape \(3,\)"):
        draw_graph(y, grad=np.ones(2))
    with pytest.raises(ValueError, match=r"grad has shape \(2,\), the root has shape \(3,\)"):
        y.backward(np.ones(2))


# ---- mistakes a student makes, each named -------------------------------------------------------

class ShiftInPlace(Function):
    """log sum exp, written with `x -= peak`: changes the caller's array."""

    saves = ("softmax",)

    def forward(self, x):
        x -= x.max()
        self.softmax = np.exp(x) / np.exp(x).sum()
        return np.log(np.exp(x).sum())

    def backward(self, grad_y):
        return (grad_y * self.softmax,)


class ScaleGradInPlace(Function):
    """y = 2x, whose backward scales grad_y in place."""

    def forward(self, x):
        return 2 * x

    def backward(self, grad_y):
        grad_y *= 2
        return (grad_y,)


def test_gradcheck_names_a_forward_that_writes_into_its_input():
    x = t(4)
    before = x.data.copy()
    with pytest.raises(ValueError, match=r"ShiftInPlace.forward wrote into an input array in "
                                         r"place .* make a new array instead \(x = x - m\)"):
        gradcheck(lambda x: ShiftInPlace()(x), x)
    assert np.array_equal(x.data, before)              # and nothing of the caller's changed


def test_gradcheck_names_a_backward_that_writes_into_grad_y():
    with pytest.raises(GradcheckError, match=r"a backward wrote into grad_y .* grad_y \* s, not "
                                             r"grad_y \*= s"):
        gradcheck(lambda x: ScaleGradInPlace()(x) + x, t(3))
    assert not minigrad.autograd.strict                 # switched off again


def test_gradcheck_suggests_settings_for_what_init_takes():
    class Scale(Function):
        saves = ()

        def __init__(self, factor):
            self.factor = factor

        def forward(self, x):
            return x * self.factor

        def backward(self, grad_y):
            return (grad_y * self.factor,)

    with pytest.raises(GradcheckError, match=r"`settings = \('factor',\)` \(__init__ takes it\)"):
        gradcheck(lambda x: Scale(3.0)(x), t(2))


def test_a_forward_that_takes_the_engines_name_or_returns_a_tensor_is_named():
    class KeepsInputs(Function):
        saves = ("inputs",)

        def forward(self, x):
            self.inputs = (x,)
            return 2 * x

    class ReturnsTensor(Function):
        def forward(self, x):
            return Tensor(2 * x)

    class BackwardReturnsTensor(Function):
        def forward(self, x):
            return 2 * x

        def backward(self, grad_y):
            return (Tensor(2 * grad_y),)

    with pytest.raises(TypeError, match=r"KeepsInputs.forward set self.inputs, the name the "
                                        r"engine keeps"):
        KeepsInputs()(t(2))
    with pytest.raises(TypeError, match=r"ReturnsTensor.forward returned a Tensor; forward works "
                                        r"on NumPy arrays"):
        ReturnsTensor()(t(2))
    with pytest.raises(TypeError, match=r"BackwardReturnsTensor\(\).backward returned a Tensor"):
        BackwardReturnsTensor()(t(2)).sum().backward()


def test_an_op_whose_first_call_failed_may_be_called_again():
    op = arithmetic.Add()
    with pytest.raises(ValueError, match="Add"):
        op(t(2, 3), t(4))                               # shapes that do not broadcast
    assert np.array_equal(op(t(2), t(2)).data, 2 * t(2).data)


def test_drawing_gradients_after_an_optimizer_step_says_what_to_do():
    from minigrad.debug import SavedArrayError
    from minigrad.optim import SGD

    minigrad.manual_seed(0)
    layer = nn.Linear(3, 2).double()
    loss = layer(t(4, 3)).sum()
    loss.backward()
    SGD(layer.parameters(), lr=0.1).step()
    with pytest.raises(SavedArrayError, match=r"(?s)draw_graph: the gradients cannot be drawn: .*"
                                              r"pass show_grads=False"):
        draw_graph(loss)
    assert "digraph" in draw_graph(loss, show_grads=False).source


def test_saves_written_as_a_string_is_named():
    class OneName(Function):
        saves = ("x")                                   # a string: the comma is missing

        def forward(self, x):
            self.x = x
            return 2 * x

        def backward(self, grad_y):
            return (2 * grad_y,)

    with pytest.raises(GradcheckError, match=r"OneName.saves must be a tuple of names, not 'x': "
                                             r"write \('x',\)"):
        gradcheck(lambda x: OneName()(x), t(2))


def test_a_change_through_a_temporary_view_is_not_forgotten():
    def halve_(w):                                      # the view dies when the helper returns
        with minigrad.no_grad():
            flat = w.reshape(-1)
            flat /= 2

    x, w = Tensor([1.0, 1.0], requires_grad=True), Tensor([2.0, 4.0], requires_grad=True)
    y = (x * w).sum()
    halve_(w)
    with pytest.raises(debug.SavedArrayError, match=r"Mul.backward would use self.b"):
        y.backward()


def test_a_hook_that_removes_itself_lets_the_next_one_run():
    x = Tensor([1.0, 1.0], requires_grad=True)
    y = x * 3.0
    ran = []

    def once(g):
        ran.append("once")
        handle.remove()

    handle = y.register_hook(once)
    y.register_hook(lambda g: ran.append("second") or g * 10)
    y.sum().backward()
    assert ran == ["once", "second"] and np.array_equal(x.grad, [30.0, 30.0])


def test_break_on_asks_its_predicate_once_per_op(monkeypatch):
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = ((x * 2.0) * 3.0).sum()
    asked = []
    with pytest.warns(UserWarning, match="no op matched break_on"):
        y.backward(break_on=lambda op: asked.append(type(op).__name__) or False)
    assert asked == ["Sum", "Mul", "Mul"]
