"""explore() refuses text no page can hold, in one line, and draws float16 without a warning."""

import warnings

import numpy as np
import pytest

from minigrad import Tensor, scope
from minigrad.viz import explore


def x_squared():
    x = Tensor([1.0, 2.0], requires_grad=True)
    return x, (x * x).sum()


def test_a_lone_surrogate_in_the_title_or_a_name_is_refused_in_one_line():
    x, loss = x_squared()
    with pytest.raises(ValueError, match=r"^explore: title 'a\\ud800' has a lone surrogate"):
        explore(loss, title="a\ud800")
    with pytest.raises(ValueError, match=r"^explore: names' key '\\udc00' has a lone surrogate"):
        explore(loss, names={"\udc00": x})
    x.name = "x\ud800"
    with pytest.raises(ValueError, match=r"^explore: a tensor's name 'x\\ud800'"):
        explore(loss)
    y = Tensor([1.0], requires_grad=True)
    with scope("\udfff"):
        z = y * 2
    with pytest.raises(ValueError, match=r"^explore: a scope's name '\\udfff'"):
        explore(z.sum())


def test_a_float16_graph_is_drawn_without_a_warning():
    x = Tensor(np.array([1.0, 2.0, 3.0], dtype=np.float16), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # (overflow encountered in cast)
        explore((x * x).sum())


def test_explore_runs_a_hook_once():
    x, loss = x_squared()
    calls = []
    x.register_hook(lambda g: calls.append(g) or g)
    explore(loss)
    assert len(calls) == 1


def test_a_sums_rule_says_its_own_axis_without_the_docstrings_shape_example():
    from minigrad.ops.reduce import Sum
    from minigrad.viz.explorer.data import rule

    assert rule(Sum(axis=1)) == ["y = sum of x over axis=1        dL/dx = dL/dy, copied over "
                                 "the summed axes"]


def test_a_fused_layer_norms_rule_gives_its_backward_formula():
    from minigrad.nn.fused_layer_norm import FusedLayerNorm
    from minigrad.viz.explorer.data import rule

    said = " ".join(rule(FusedLayerNorm()))
    assert "dL/dx = (1/sigma) (g - mean(g) - xhat * mean(g * xhat))" in said, said
    assert "g = dL/dy * weight" in said and "the last axis" in said
    assert "this file" not in said
