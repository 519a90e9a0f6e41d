"""What the engine keeps per op, and its topological sort against a plain recursive one.

A graph of small ops lives as Python objects; each one an op keeps alive is one more for the
garbage collector to count and scan while the graph lives (bench/engine.py measures the cost).
"""

import gc
import platform

import numpy as np
import pytest

from minigrad import Tensor, topological_order


def test_ops_of_one_pattern_share_their_needs_input_grad_tuple():
    x = Tensor(np.ones(2), requires_grad=True)
    c = Tensor(np.ones(2))
    first, second = x * c, (x + 1.0) * c              # Mul(x, c) and Mul(x + 1, c)
    both = x * x
    assert first.creator.needs_input_grad == (True, False)
    assert first.creator.needs_input_grad is second.creator.needs_input_grad
    assert both.creator.needs_input_grad == (True, True)
    assert c.__rmul__(x).creator.needs_input_grad == (True, False)  # Mul(x, c) once more
    assert (x * c).creator.needs_input_grad is first.creator.needs_input_grad


@pytest.mark.skipif(platform.python_implementation() != "CPython",
                    reason="counts CPython's garbage-collected objects")
def test_a_recorded_op_keeps_three_objects_for_the_garbage_collector():
    """The output tensor, the op and its list of inputs; nothing more per op (a chain of tanh:
    Tanh saves its output, an array, which the collector does not track)."""
    y = Tensor(np.array([0.5]), requires_grad=True).tanh()  # the first op of its pattern
    enabled = gc.isenabled()
    gc.disable()
    try:
        before = gc.get_count()[0]
        for _ in range(300):
            y = y.tanh()
        kept = gc.get_count()[0] - before
    finally:
        if enabled:
            gc.enable()
    assert y.creator.inputs[0].creator is not None
    assert kept <= 3 * 300, f"{kept / 300:.2f} objects per op"


def recursive_order(root):
    """The definition the iterative sort must agree with: inputs first, in argument order."""
    order, seen = [], set()

    def visit(t):
        if t in seen or not t.requires_grad:
            return
        seen.add(t)
        if t.creator is not None:
            for x in t.creator.inputs:
                visit(x)
        order.append(t)

    visit(root)
    return order


def test_topological_order_agrees_with_the_recursive_definition_on_a_random_graph():
    rng = np.random.default_rng(0)
    leaves = [Tensor(rng.standard_normal(2), requires_grad=True) for _ in range(5)]
    constant = Tensor(np.ones(2))
    tensors = leaves + [constant]
    for i in range(200):                                # ops on earlier tensors, shared often
        a, b = (tensors[k] for k in rng.integers(len(tensors), size=2))
        tensors.append(a * b if i % 3 == 0 else a + b if i % 3 == 1 else a.tanh())
    root = sum(tensors[-20:], tensors[-21]).sum()
    order = topological_order(root)
    assert [id(t) for t in order] == [id(t) for t in recursive_order(root)]
    assert constant not in set(order)
