"""The central difference both gradient checks use (gradcheck and debug.check_graph)."""

import numpy as np
import pytest

from minigrad import Tensor, gradcheck
from minigrad.finite_differences import central_difference
from minigrad.gradcheck import nudged


def test_central_difference_is_second_order_accurate():
    # s(t) = exp(t): slope 1 at 0; a one-sided difference is off by eps/2 = 5e-4, this by eps²/6
    slope = central_difference(np.exp, 1e-3)
    assert abs(slope - 1) < 2e-7 and abs((np.exp(1e-3) - 1) / 1e-3 - 1) > 4e-4


def test_a_kink_gives_none_only_when_the_base_is_given():
    relu = lambda t: max(t, 0.0)                                        # noqa: E731
    assert central_difference(relu, 1e-6, base=relu(0.0)) is None      # slopes 0 and 1
    assert central_difference(relu, 1e-6) == pytest.approx(0.5)        # the plain average
    assert central_difference(lambda t: 3 * t, 1e-6, base=0.0) == pytest.approx(3)


def test_central_difference_asks_for_s_at_plus_then_minus_eps():
    asked = []
    central_difference(lambda t: asked.append(t) or 0.0, 0.25)
    assert asked == [0.25, -0.25]


def test_nudged_restores_the_element_even_when_the_function_raises():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    assert nudged(x, (1,), 0.5, lambda: float(x.data[1])) == 2.5
    with pytest.raises(ZeroDivisionError):
        nudged(x, (0,), 0.5, lambda: 1 / 0)
    np.testing.assert_array_equal(x.data, [1.0, 2.0])


def test_gradcheck_still_leaves_its_inputs_as_they_were():
    x = Tensor(np.array([[0.3, -1.2], [2.0, 0.5]]), requires_grad=True)
    before = x.data.copy()
    assert gradcheck(lambda a: (a * a).tanh(), x)
    np.testing.assert_array_equal(x.data, before)
