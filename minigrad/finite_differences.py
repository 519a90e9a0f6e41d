"""Central differences: the slope of a number s along one direction, from values of s alone.

Both gradient checks read their numeric gradients here: `minigrad.gradcheck` (a whole function,
one input element at a time) and `minigrad.debug.check_graph` (each op of a graph on its own,
along single elements or a random direction). Each passes `s(step)`: the number it compares,
computed with the input moved by `step` along the direction.

    (s(eps) - s(-eps)) / (2 eps)

is off from the true slope by O(eps**2) where s is smooth (a one-sided difference is off by
O(eps)), which is why both checks use it, in float64 with eps = 1e-6.
"""


def central_difference(s, eps, base=None):
    """The slope of s at 0, (s(eps) - s(-eps)) / (2 eps).

    With `base` = s(0) given, also look for a kink: where the slopes to the right,
    (s(eps) - base) / eps, and to the left, (base - s(-eps)) / eps, differ by more than 0.1%
    (ReLU at 0, a tie in max, clip at its bounds) s has no derivative to compare, and the answer
    is None."""
    plus = s(eps)
    minus = s(-eps)
    if base is not None:
        right, left = (plus - base) / eps, (base - minus) / eps
        if abs(right - left) > 1e-3 * (1 + abs(right) + abs(left)):
            return None                                 # a kink: no derivative here
    return (plus - minus) / (2 * eps)
