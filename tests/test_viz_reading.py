"""What helps a reader read a drawing: no mask guard where nothing is masked and readable masks
where something is, the legend, gradients on arrows kept inside the frames, and the compact
layout of the attention step."""

import numpy as np
import pytest

pytest.importorskip("graphviz")

from minigrad import Tensor  # noqa: E402
from minigrad.viz import draw_graph  # noqa: E402
from tests.test_viz import edges, find, nodes  # noqa: E402


def constant_boxes(source):
    """{node: label} of the boxes of constants (the grey header)."""
    found = nodes(source)
    return {name: found[name] for name, line in _node_lines(source)
            if 'BGCOLOR="#f2f3f4"' in line}


def _node_lines(source):
    for line in source.splitlines():
        name = line.strip().split(" ", 1)[0]
        if "[label=" in line and not line.strip().startswith(("graph", "node", "edge")):
            yield name, line


# ---- the mask guard and masks ---------------------------------------------------------------

def test_the_default_attention_drawing_has_no_where_and_names_every_constant():
    from attention.draw import draw_attention_step
    for options in ({}, {"backward_order": True}, {"hard": True}):
        source = draw_attention_step(**options).source
        assert "Where(" not in source, options
        constants = constant_boxes(source)
        unnamed = [label for label in constants.values() if label.startswith("(")]   # shape first
        assert constants and not unnamed, options
    assert [label.split()[0] for label in constant_boxes(draw_attention_step().source).values()
            ] == ["max"]


def test_a_mask_is_drawn_as_a_where_with_its_count_and_a_named_minus_infinity():
    from attention.functional import dot_product_attention
    rng = np.random.default_rng(0)
    q, k, v = (Tensor(rng.standard_normal(shape), requires_grad=True)
               for shape in ((2, 3), (4, 3), (4, 2)))
    context, _ = dot_product_attention(q, k, v, mask=np.array([True, True, False, True]))
    source = draw_graph(context.sum()).source
    found = nodes(source)
    where = find(found, "Where(")
    assert found[where] == "Where(cond=array(4,), 3 of 4 True)"
    masked = find(found, "masked score")
    assert found[masked] == "masked score () float64 -inf"
    assert [(tail, head) for tail, head, _ in edges(source) if tail == masked] == [
        (masked, where)]
    everything, _ = dot_product_attention(q, k, v, mask=np.ones(4, dtype=bool))
    assert "Where(cond=array(4,), all True)" in draw_graph(everything.sum()).source
