"""backward_steps: the backward pass one op at a time, with the same result as backward()."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, debug, topological_order
from tests.test_debug_break import attention_step


def tangled(rng):
    """A graph with a reused intermediate, a diamond, broadcasting and a float32 leaf."""
    x = Tensor(rng.standard_normal((3, 4)), requires_grad=True, name="x")
    w = Tensor(rng.standard_normal(4).astype(np.float32), requires_grad=True, name="w")
    h = (x * w).tanh()
    y = (h * h + h.exp()).sum(axis=0) / (1 + w * w)
    return [x, w], (y * y).sum() + F.softmax(y).max()


# ---- backward_steps ---------------------------------------------------------------------------

def test_exhausted_steps_leave_exactly_the_gradients_of_backward(rng):
    leaves, loss = tangled(rng)
    loss.backward()
    expected = [x.grad for x in leaves]
    for x in leaves:
        x.zero_grad()
    steps = list(debug.backward_steps(loss))
    assert len(steps) == len({id(t.creator) for t in topological_order(loss)
                              if t.creator is not None})
    for x, grad in zip(leaves, expected):
        assert x.grad.dtype == grad.dtype
        np.testing.assert_array_equal(x.grad, grad)


def test_steps_show_each_op_its_gradients_and_the_running_totals():
    q, keys, values, weights, context = attention_step()
    steps = list(debug.backward_steps(context))
    assert [type(s.op).__name__ for s in steps] == ["MatMul", "Softmax", "MatMul"]
    assert [s.number for s in steps] == [1, 2, 3]
    softmax = steps[1]
    assert softmax.output is weights and softmax.inputs == list(weights.creator.inputs)
    np.testing.assert_array_equal(softmax.grad_y, values.data)      # dc/da_j = v_j
    a, c = weights.data, context.item()
    np.testing.assert_allclose(softmax.grads[0], a * (values.data - c))   # a_j (v_j - c)
    np.testing.assert_allclose(steps[2].totals[1], (a * (values.data - c)) @ keys.data)


def test_running_total_adds_up_over_the_uses_of_an_input():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    h = x * 3
    loss = (h * 2 + h.exp()).sum()
    seen = {}
    for step in debug.backward_steps(loss):
        for x, total in zip(step.inputs, step.totals):
            if x is h:
                seen[type(step.op).__name__] = total
    first, second = sorted(seen, key=list(seen).index)
    np.testing.assert_allclose(seen[second], 2 + np.exp(h.data))     # both uses, added up
    assert not np.allclose(seen[first], seen[second])


def test_stopping_half_way_leaves_the_leaves_not_yet_reached():
    q, keys, values, weights, context = attention_step()
    steps = debug.backward_steps(context)
    first = next(steps)                             # the last MatMul: values' gradient is sent
    np.testing.assert_allclose(first.totals[1], weights.data)
    assert values.grad is None                      # ... but the walk reaches the leaf later
    next(steps)
    np.testing.assert_allclose(values.grad, weights.data)
    assert q.grad is None and keys.grad is None
    list(steps)
    assert q.grad is not None and keys.grad is not None


def test_step_reads_well_at_the_repl():
    q, keys, values, weights, context = attention_step()
    text = repr(list(debug.backward_steps(context))[1])
    assert text.splitlines()[0] == "Step 2: Softmax(axis=-1)"
    assert text.splitlines()[1:] == [
        "  output   <Softmax> (4,)   grad_y [10., 20., 30., 40.]",
        "  input 0  <MatMul> (4,)    grad   [-3.4781, -0.3832, 3.7911, 0.0702]"]
    assert str(list(debug.backward_steps(context))[0]) == repr(
        list(debug.backward_steps(context))[0])


def test_backward_steps_checks_the_root_gradient_at_once():
    x = Tensor(np.ones(3), requires_grad=True)
    with pytest.raises(RuntimeError, match="not a single number"):
        debug.backward_steps(x * 2)
    with pytest.raises(ValueError, match="grad has shape"):
        debug.backward_steps(x * 2, grad=np.ones(2))
