"""draw_graph: the computation graph behind a tensor, as a Graphviz drawing.

Tensors are tables (name, shape and dtype; values; gradient), ops are rounded boxes with their
settings, and an arrow goes from each input to the op and from the op to its output. The ops
recorded inside `with minigrad.scope(name):` are drawn inside a frame of that name (a cluster),
or, when the name is in `collapse`, folded into one box, which holds the parameters and
constants used only there (it counts the parameters; unfolded, each has its box).

Everything is numbered in the order of a fixed walk of the graph (tensors t0, t1, ..., ops op0,
op1, ...), never by `id()`, so the same graph gives the same DOT text, byte for byte.

This file reads the arguments and computes the gradients; which boxes are drawn, and in which
frame, is planned in minigrad/viz/plan.py; minigrad/viz/drawing.py writes the plan as DOT.
"""

from minigrad.graph import walk
from minigrad.tensor import Tensor
from minigrad.versions import SavedArrayError
from minigrad.viz.plan import Plan, scope_group
from minigrad.viz.walk import gradients

RANKDIRS = ("TB", "LR", "BT", "RL")

# The deepest nesting of scopes a drawing or an explorer page shows. Each frame (cluster) sits
# inside the frames of its enclosing scopes, and its DOT text is indented once per frame around
# it, so the text grows as depth squared: one op inside 1,000 nested scopes took 1 s and 0.7 GB
# to draw, 1,600 took 3 s and 2.5 GB, and Graphviz itself gave up (its parser ran out of
# memory) at 2,500. Models nest a few scopes deep. Read at each call: raise it on purpose.
MAX_SCOPE_DEPTH = 100


def draw_graph(root, *, show_values=True, show_grads=True, show_saved=False, names=None,
               collapse=None, rankdir="TB", max_nodes=None, backward_order=False, grad=None,
               title=None, legend=True, compact=False):
    """The graph behind `root` as a `graphviz.Digraph` (it shows itself in Jupyter; `.render()`
    and `minigrad.viz.render()` write SVG, PNG or PDF).

    root            a tensor, or a list of tensors drawn together (gradients come from the first)
    show_values     write each tensor's values (a summary for large arrays)
    show_grads      write each tensor's gradient d(root)/d(tensor). Computed here, by the engine's
                    own backward walk (hooks included), when the root is a single number or `grad`
                    is given; nothing is stored in any `.grad`. Otherwise the leaves' `.grad` is
                    shown as it is.
    show_saved      list in each op what it saved for its backward
    names           labels for tensors: a dict {name: tensor}, or a Module (its named_parameters)
    collapse        scope names (or one name) whose ops are drawn as a single box
    rankdir         "TB" (top to bottom), "LR", "BT" or "RL"
    max_nodes       draw only this many boxes, those nearest the root, and one "… more" box
    backward_order  number the ops in the order backward visits them and write on every arrow
                    the gradient that flows back along it
    grad            the gradient arriving at a root that is not a single number
    title           a caption above the drawing
    legend          a key under the title: what the colours, borders and line styles mean (only
                    those that appear in this drawing)
    compact         line the top-level frames up across the page, each from the first rank:
                    columns for "TB", rows for "LR" (see minigrad/viz/layout.py)
    """
    if rankdir not in RANKDIRS:
        raise ValueError(f"draw_graph: rankdir must be one of {RANKDIRS}, not {rankdir!r}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"draw_graph: max_nodes must be at least 1, not {max_nodes}")
    roots = _as_roots(root)
    graph = walk(roots)
    collapse = _collapse_set(collapse)
    check_scope_depth([_drawn_scope(op.scope, collapse) for op in graph.ops], "draw_graph",
                      "fold the deep scopes into one box each (draw_graph(..., collapse=[...]))")
    passed = _backward_pass(roots[0], grad, show_grads, backward_order)
    if passed is not None:
        grads = passed.of_tensor
    else:
        grads = {id(t): t.grad for t in graph.tensors if t.creator is None and t.grad is not None}
    plan = Plan(graph, roots, _known_names(graph, names), collapse)
    plan.gradients_on_arrows = backward_order
    plan.add_everything(
        values=show_values, grads=grads if show_grads else {},
        none_grads=show_grads and passed is not None,
        edges=passed.along_edge if backward_order else None,
        steps={id(op): k for k, op in enumerate(passed.order, 1)} if backward_order else {},
        saved=show_saved)
    if max_nodes is not None:
        plan.keep_nearest(max_nodes)

    from minigrad.viz.drawing import build
    return build(plan, rankdir, title, legend=legend, compact=compact)


def check_scope_depth(scopes, where, what_to_do):
    """Refuse, in one line, scope paths nested deeper than MAX_SCOPE_DEPTH, before any drawing
    is built (see MAX_SCOPE_DEPTH)."""
    deepest = max(scopes, key=len, default=())
    if len(deepest) > MAX_SCOPE_DEPTH:
        raise ValueError(f"{where}: the graph has scopes nested {len(deepest):,} deep (inside "
                         f"{deepest[0]!r}), more than the {MAX_SCOPE_DEPTH} a drawing shows "
                         f"(minigrad.viz.dot.MAX_SCOPE_DEPTH); {what_to_do}")


def _drawn_scope(scope, collapse):
    """The scope path whose frames are drawn around an op: the frames around its collapsed
    scope's box, if it is in one."""
    group = scope_group(scope, collapse)
    return tuple(scope) if group is None else group[:-1]


def _as_roots(root):
    roots = [root] if isinstance(root, Tensor) else list(root)
    if not roots or not all(isinstance(t, Tensor) for t in roots):
        raise TypeError("draw_graph: root must be a Tensor or a non-empty list of Tensors")
    return roots


def _backward_pass(root, grad, show_grads, backward_order):
    """The gradients to draw, from the engine's walk; None where none can be computed (and none
    are needed): a root that is not a single number and has no `grad`."""
    if not (show_grads or backward_order):
        return None
    if root.requires_grad and root.data.size != 1 and grad is None and not backward_order:
        return None                     # (backward_order: the engine's own error says why)
    try:
        return gradients(root, grad)
    except SavedArrayError as error:    # e.g. drawn after optimizer.step()
        raise SavedArrayError(f"draw_graph: the gradients cannot be drawn: {error}\n(To draw "
                              "this graph anyway, pass show_grads=False; or draw before "
                              "optimizer.step(), or after a new forward.)") from error


def _known_names(graph, names):
    """id(tensor) -> label: each tensor's own `name`, then those given in `names`."""
    known = {id(t): t.name for t in graph.tensors if t.name is not None}
    if names is None:
        return known
    pairs = names.named_parameters() if hasattr(names, "named_parameters") else names.items()
    for name, t in pairs:
        if not isinstance(t, Tensor):
            raise TypeError(f"draw_graph: names[{name!r}] is a {type(t).__name__}, not a Tensor")
        known[id(t)] = str(name)
    return known


def _collapse_set(collapse):
    if collapse is None:
        return ()
    return (collapse,) if isinstance(collapse, str) else tuple(str(name) for name in collapse)
