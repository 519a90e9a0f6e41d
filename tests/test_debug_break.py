"""Stopping in an op's backward: break_on, through sys.breakpointhook and through
PYTHONBREAKPOINT in a child process (a function of ours, and pdb driven by piped commands); and
the gradient hooks of tensors, register_hook and retain_grad, against PyTorch."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor
from minigrad.ops.softmax import Softmax

ROOT = Path(__file__).resolve().parent.parent


def attention_step():
    """The worked example: q = (2, 1), four keys, values 10..40, softmax as one fused op."""
    q = Tensor([2.0, 1.0], requires_grad=True, name="q")
    keys = Tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]], requires_grad=True,
                  name="keys")
    values = Tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True, name="values")
    weights = F.softmax(keys @ q)
    return q, keys, values, weights, weights @ values


# ---- break_on ---------------------------------------------------------------------------------

@pytest.fixture
def stops(monkeypatch):
    """Replace the debugger: each breakpoint() records the locals of the frame it was called in."""
    seen = []
    monkeypatch.setattr(sys, "breakpointhook", lambda: seen.append(dict(sys._getframe(1).f_locals)))
    return seen


def test_break_on_a_name_stops_just_before_that_op_with_its_locals(stops):
    q, keys, values, weights, context = attention_step()
    context.backward(break_on="Softmax")
    assert len(stops) == 1
    frame = stops[0]
    assert isinstance(frame["op"], Softmax) and frame["op"] is weights.creator
    np.testing.assert_array_equal(frame["grad_y"], values.data)
    np.testing.assert_array_equal(frame["inputs"][0], [2.0, 1.0, 3.0, -2.0])   # the scores
    np.testing.assert_array_equal(frame["y"], weights.data)
    np.testing.assert_allclose(q.grad, (weights.data * (values.data - context.item())) @ keys.data)


def test_break_on_a_class_or_a_predicate(stops):
    q, keys, values, weights, context = attention_step()
    context.backward(break_on=lambda op: type(op).__name__ == "MatMul")
    assert [type(s["op"]).__name__ for s in stops] == ["MatMul", "MatMul"]
    stops.clear()
    context.backward(break_on=Softmax)
    assert [type(s["op"]).__name__ for s in stops] == ["Softmax"]


def test_break_on_a_name_no_op_has_warns(stops):
    q, keys, values, weights, context = attention_step()
    with pytest.warns(UserWarning, match="no op matched break_on='softmax'"):
        context.backward(break_on="softmax")
    assert stops == []
    with pytest.raises(TypeError, match="break_on"):
        context.backward(break_on=3)


def test_pythonbreakpoint_picks_the_debugger_in_a_child_process(tmp_path):
    (tmp_path / "spy.py").write_text(textwrap.dedent("""
        import sys
        def stop():
            frame = sys._getframe(1)
            print("stopped in", frame.f_code.co_name, "before", repr(frame.f_locals["op"]),
                  "grad_y", frame.f_locals["grad_y"].tolist())
    """))
    script = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        from tests.test_debug_break import attention_step
        q, keys, values, weights, context = attention_step()
        context.backward(break_on="Softmax")
        print("q.grad", q.grad.round(3).tolist())
    """)
    env = {**os.environ, "PYTHONBREAKPOINT": "spy.stop",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", script, str(ROOT)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "stopped in _backward_in_debugger before Softmax(axis=-1) grad_y [10.0, 20.0, 30.0, 40.0]",
        "q.grad [0.243, 3.408]"]


def test_a_scripted_pdb_session_steps_into_softmax_backward(tmp_path):
    script = textwrap.dedent("""
        from tests.test_debug_break import attention_step
        q, keys, values, weights, context = attention_step()
        context.backward(break_on="Softmax")
        print("q.grad", q.grad.round(3).tolist())
    """)
    commands = "p op\ns\nn\nn\np round(float(np.sum(grad_y * y)), 2)\nc\n"
    env = {**os.environ, "PYTHONBREAKPOINT": "pdb.set_trace", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], input=commands, env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "_backward_in_debugger()" in out and "Softmax(axis=-1)" in out
    assert "--Call--" in out and os.path.join("minigrad", "ops", "softmax.py") in out
    assert "24.28" in out                            # sum(grad_y * y): the context
    assert out.rstrip().endswith("q.grad [0.243, 3.408]")


def test_pythonbreakpoint_0_turns_break_on_off(monkeypatch):
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")
    monkeypatch.setattr(sys, "breakpointhook", sys.__breakpointhook__)
    q, keys, values, weights, context = attention_step()
    context.backward(break_on="Softmax")
    np.testing.assert_allclose(q.grad, [0.24288196, 3.40788978])


# ---- hooks and retain_grad --------------------------------------------------------------------

def test_hooks_and_retain_grad_follow_pytorch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in ("minigrad", "torch"):
        x = Tensor([1.0, 2.0], requires_grad=True) if lib == "minigrad" else \
            torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        h = x * 3
        h.retain_grad()
        h.register_hook(lambda g: g * 10)               # retained: after the hooks
        x.register_hook(lambda g: g + 1)                # a leaf: before it accumulates
        y = (h * h).sum()
        y.backward() if lib == "minigrad" else y.backward(retain_graph=True)
        first = (as_array(h.grad), as_array(x.grad))
        y.backward()                                    # both add up over calls
        results.append(first + (as_array(h.grad), as_array(x.grad)))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(results[0][0], [60.0, 120.0])


def as_array(grad):
    return grad.detach().numpy().copy() if hasattr(grad, "detach") else grad.copy()


def test_a_hook_sees_a_read_only_gradient_and_its_handle_removes_it():
    x = Tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    seen = []

    def spoil(grad):
        seen.append(grad.copy())
        grad *= 0                                       # not allowed: return a new array

    handle = h.register_hook(spoil)
    with pytest.raises(ValueError, match="read-only"):
        h.sum().backward()
    handle.remove()
    x.zero_grad()
    h.sum().backward()
    np.testing.assert_array_equal(seen[0], [1.0, 1.0])
    np.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_hook_mistakes_are_named():
    x = Tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: np.ones(3))
    with pytest.raises(ValueError, match=r"returned a gradient of shape \(3,\)"):
        h.sum().backward()
    with pytest.raises(RuntimeError, match="does not require grad"):
        Tensor([1.0]).register_hook(print)
    with pytest.raises(RuntimeError, match="does not require grad"):
        Tensor([1.0]).retain_grad()


def test_without_retain_grad_intermediates_keep_no_gradient():
    x = Tensor([1.0, 2.0], requires_grad=True)
    h, k = x * 2, x * 3
    k.retain_grad()
    (h * k).sum().backward()
    assert h.grad is None and not h.retains_grad
    np.testing.assert_array_equal(k.grad, h.data)
