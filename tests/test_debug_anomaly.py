"""trace() and detect_anomaly(): the tables they print, the op and the line they name."""

import inspect
import io
import os

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, autograd, debug, no_grad
from tests.test_debug_break import attention_step

HERE = os.path.relpath(__file__)


def next_line():
    """The number of the line after the caller's."""
    return inspect.currentframe().f_back.f_lineno + 1


# ---- trace ------------------------------------------------------------------------------------

def test_trace_prints_the_forward_ops_then_the_backward_steps():
    out = io.StringIO()
    with debug.trace(file=out) as tracer:
        q, keys, values, weights, context = attention_step()
        context.backward()
    lines = out.getvalue().splitlines()
    assert lines[0] == "forward: 3 ops"
    assert lines[1].split() == ["#", "op", "inputs", "output", "created", "at"]
    assert lines[2].split()[:6] == ["1", "MatMul()", "keys", "(4,", "2),", "q"]
    assert "#1 (4,)" in lines[3] and "Softmax(axis=-1)" in lines[3]
    assert "test_debug_break.py" in lines[3]          # where attention_step made it
    assert lines[5] == "backward: 3 steps"
    assert [row[1] for row in tracer.backward_rows] == ["#3 MatMul()", "#2 Softmax(axis=-1)",
                                                        "#1 MatMul()"]
    norm_values = np.linalg.norm(values.data)          # what arrives at the softmax
    assert tracer.backward_rows[1][2] == f"(4,) {norm_values:.4g}"
    assert f"#2: {norm_values:.4g}" in tracer.backward_rows[0][3]
    assert autograd.watchers == []


def test_trace_marks_ops_that_were_not_recorded():
    out = io.StringIO()
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    with debug.trace(file=out) as tracer:
        with no_grad():
            x * 2
        x * 3
    assert tracer.forward_rows[0][3] == "(2,) (not recorded)"
    assert tracer.forward_rows[1][3] == "(2,)"
    assert "backward: 0 steps" in out.getvalue()


# ---- detect_anomaly: forward ------------------------------------------------------------------

def test_anomaly_names_the_first_op_and_the_line_that_made_it():
    x = Tensor([1.0, 0.0, 4.0], requires_grad=True, name="x")
    with pytest.raises(debug.AnomalyError) as error:
        with np.errstate(divide="ignore", invalid="ignore"):
            with debug.detect_anomaly():
                y = x * 2
                line = next_line()
                z = y.log()                            # log(0) = -inf: the first anomaly
                (z * 0).sum()                          # inf * 0 = NaN, but too late
    message = str(error.value)
    assert message.splitlines()[0] == ("Log() is the first op whose output holds NaN or inf "
                                       "(forward): 1 inf of 3 elements, output shape (3,)")
    assert "input 0 <Mul>: shape (3,) float64: min 0, max 8; 1 zero" in message
    assert f"created at {HERE}:{line} in test_anomaly_names_the_first_op_and_the_line" in message
    assert "z = y.log()" in message
    assert autograd.watchers == []


def test_anomaly_points_at_the_users_line_through_library_code():
    scores = Tensor([[1.0, np.nan]], requires_grad=True)
    with pytest.raises(debug.AnomalyError) as error:
        with debug.detect_anomaly():
            line = next_line()
            F.softmax(scores * 1.0)
    message = str(error.value)
    assert message.startswith("Mul() is the first op")          # not Softmax: Mul came first
    assert f"{HERE}:{line}" in message


def test_allow_inf_lets_masks_through_but_not_nan():
    q, keys, values, weights, context = attention_step()
    from attention import dot_product_attention
    mask = np.array([True, True, False, True])
    with debug.detect_anomaly(allow_inf=True):
        context, weights = dot_product_attention(q, keys, values, mask=mask)
        context.backward()
    assert weights.data[2] == 0
    with pytest.raises(debug.AnomalyError, match="Where"):
        with debug.detect_anomaly():
            dot_product_attention(q, keys, values, mask=mask)
    with pytest.raises(debug.AnomalyError, match="1 NaN"):
        with np.errstate(invalid="ignore"), debug.detect_anomaly(allow_inf=True):
            Tensor([np.inf]) - np.inf


def test_no_check_outside_the_block():
    with np.errstate(divide="ignore"):
        y = Tensor([0.0], requires_grad=True).log()
    assert np.isneginf(y.data[0])


# ---- detect_anomaly: backward -----------------------------------------------------------------

def test_anomaly_in_backward_names_the_op_whose_gradient_is_not_finite():
    x = Tensor([4.0, 0.0], requires_grad=True, name="x")
    with debug.detect_anomaly():
        line = next_line()
        root = x.sqrt()                             # sqrt(0) = 0 is fine forward ...
        loss = (root * 3).sum()
        with pytest.raises(debug.AnomalyError) as error:
            with np.errstate(divide="ignore"):
                loss.backward()                     # ... but its slope 1 / (2 sqrt(0)) is inf
    message = str(error.value)
    assert message.startswith("Sqrt() is the first op whose backward returns NaN or inf: 1 inf "
                              "of 2 elements in the gradient for input 0, x (2,)")
    assert "input 0 x: shape (2,) float64: min 0, max 4; 1 zero" in message
    assert f"{HERE}:{line}" in message


def test_anomaly_when_finite_gradients_overflow_as_they_add_up():
    x = Tensor([1e-300], requires_grad=True)
    h = x * 1.0
    with debug.detect_anomaly():
        loss = (h * 1e308).sum() + (h * 1e308).sum()      # 2e8: fine forward
        with pytest.raises(debug.AnomalyError, match="the gradient arriving at the output of "
                                                     r"Mul\(\) has 1 inf"):
            with np.errstate(over="ignore"):
                loss.backward()
