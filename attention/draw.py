"""`python -m attention draw`: one attention step as a graph, with the values and the gradients
on every node.

The default is the worked example of docs/why-soft-attention-trains.md: q = (2, 1), four keys,
values 10 20 30 40. The drawing shows the weights 0.244 0.090 0.662 0.004, the output 24.28, and
a gradient reaching every key and every value. With `hard=True` the softmax is replaced by the
hard choice (argmax, one-hot): the values still get a gradient, the scores none at all.

    python -m attention draw --out runs/attention-step.svg
    python -m attention draw --hard --out runs/hard-attention-step.svg
    python -m attention draw --random 3 --backward-order --out runs/batch.svg
    python -m attention draw --rankdir LR --out runs/wide.svg        # the frames as rows
"""

import numpy as np

from minigrad import Tensor, scope
from minigrad.files import default_path, os_error_text, output_path
from minigrad.messages import message as minigrad_message
from minigrad.settings import check_number
from attention.functional import one_hot_argmax
from attention.messages import message
from attention.softmax import softmax

WORKED_QUERY = [2.0, 1.0]
WORKED_KEYS = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]]
WORKED_VALUES = [10.0, 20.0, 30.0, 40.0]
CUT_COLOR = "#b03a2e"       # the hard step's arrow from the scores to the one-hot weights


def worked_example():
    """(query, keys, values): the worked example, as fresh leaves that require grad."""
    return (Tensor(WORKED_QUERY, requires_grad=True, name="q"),
            Tensor(WORKED_KEYS, requires_grad=True, name="keys"),
            Tensor(WORKED_VALUES, requires_grad=True, name="values"))


def random_example(queries=3, candidates=4, dim=2, value_dim=2, seed=0):
    """(queries, keys, values) drawn at random: Q (m, d), K (n, d), V (n, dv)."""
    rng = np.random.default_rng(seed)
    return (Tensor(rng.standard_normal((queries, dim)), requires_grad=True, name="queries"),
            Tensor(rng.standard_normal((candidates, dim)), requires_grad=True, name="keys"),
            Tensor(rng.standard_normal((candidates, value_dim)), requires_grad=True,
                   name="values"))


def attention_step(query, keys, values, hard=False):
    """(scores, weights, context): score, weigh, mix, each in a scope of that name.

    query (d,) one query, or (m, d) m queries    keys (n, d)    values (n,) or (n, dv)
    hard=True weighs with one_hot_argmax (a constant: no gradient flows back to the scores).
    """
    with scope("score"):
        scores = keys @ query if query.ndim == 1 else query @ keys.T     # (n,) or (m, n)
    if hard:
        weights = one_hot_argmax(scores)                # a constant leaf: the graph stops here
    else:
        with scope("softmax"):
            weights = softmax(scores)                   # (n,) or (m, n), rows sum to 1
    with scope("mix"):
        context = weights @ values                      # (), (dv,), (m,) or (m, dv)
    scores.name, context.name = "scores", "context"
    if not hard:
        weights.name = "weights"
    return scores, weights, context


def draw_attention_step(query=None, keys=None, values=None, hard=False, backward_order=False,
                        rankdir="TB", title=None, legend=True, compact=True):
    """The graph of one attention step (the worked example unless query, keys and values are
    given), with values and gradients: a `minigrad.viz` Drawing.

    The gradients are those of the context when it is one number, else of its sum. In the hard
    step the scores are drawn too, with a dashed arrow to the one-hot weights that carries no
    gradient. `compact`: the frames score, softmax and mix side by side, as columns (rankdir
    "TB") or rows ("LR"), rather than stepped diagonally; `legend`: the key under the title.
    """
    from minigrad.viz import draw_graph
    from minigrad.viz.legend import add_entry, line_sample

    if query is None:
        query, keys, values = worked_example()
    scores, weights, context = attention_step(query, keys, values, hard)
    grad = None if context.size == 1 else np.ones_like(context.data)     # d sum(context)
    if title is None:
        title = ("Hard attention (argmax): no gradient reaches the scores" if hard else
                 "Soft attention (softmax): a gradient reaches every key and every value")
        if grad is not None:
            title += " (gradients of sum(context))"
    roots = [context, scores] if hard else [context]
    drawing = draw_graph(roots, grad=grad, backward_order=backward_order, rankdir=rankdir,
                         title=title, legend=legend, compact=compact)
    if hard:
        drawing.edge(drawing.node_name(scores), drawing.node_name(weights),
                     label="argmax: flat, no derivative", style="dashed", color=CUT_COLOR,
                     fontcolor=CUT_COLOR, arrowhead="empty")
        add_entry(drawing, line_sample("dashed", CUT_COLOR), "made outside the graph: no gradient")
    return drawing


def write_attention_step(path, engine="auto", overwrite=False, **options):
    """Draw the step (options as in draw_attention_step) and render it to `path` (.svg, .png,
    .pdf; the DOT text goes beside it). Returns the path. `overwrite`: replace files there that
    no earlier drawing wrote (render's rule)."""
    from minigrad.viz import render

    return render(draw_attention_step(**options), path, engine=engine, overwrite=overwrite)


# ---------------------------------------------------------------------------------------------
# The command line: python -m attention draw
# ---------------------------------------------------------------------------------------------

def add_command(commands):
    """Register the `draw` subcommand on an argparse subparsers object."""
    from minigrad.viz.render import ENGINES

    draw = commands.add_parser("draw", help="draw one attention step as a graph, with values "
                               "and gradients (the worked example by default)")
    draw.add_argument("--out", help="the picture (.svg, .png, .pdf); the DOT text goes beside "
                      f"it (.dot) (default: {default_path('attention-step.svg')})")
    draw.add_argument("--overwrite", action="store_true", help="replace the picture and its "
                      ".dot file if they exist (without it, an existing one is refused)")
    add_example_options(draw)
    draw.add_argument("--backward-order", action="store_true",
                      help="number the ops as backward visits them; gradients on the arrows")
    draw.add_argument("--rankdir", choices=["TB", "LR"], default="TB",
                      help="TB: the frames score, softmax, mix as columns, each read top to "
                      "bottom; LR: as rows, each read left to right (a wide picture)")
    draw.add_argument("--no-compact", dest="compact", action="store_false",
                      help="let the arrows place the frames (they step diagonally)")
    draw.add_argument("--no-legend", dest="legend", action="store_false",
                      help="leave out the key to colours and line styles")
    draw.add_argument("--engine", choices=ENGINES, default="auto",
                      help="the system dot, or the Graphviz bundled in pygraphviz")
    return draw


RANDOM_DEFAULTS = {"keys": 4, "dim": 2, "value_dim": 2, "seed": 0}


MAX_SIZE = 256          # queries, keys and sizes of a --random step (10,000 queries took minutes)


def add_example_options(parser, seed_help="with --random"):
    """The options that choose the step, the same for `draw` and `explore`. The sizes and the
    seed default to None, so that one given where it does nothing can be refused (the defaults
    of --random are RANDOM_DEFAULTS)."""
    parser.add_argument("--hard", action="store_true", help="hard attention (argmax, one-hot)")
    parser.add_argument("--random", type=int, metavar="M", default=None,
                        help="M random queries instead of the worked example")
    parser.add_argument("--keys", type=int, default=None, help="with --random: candidates n "
                        "(default: 4)")
    parser.add_argument("--dim", type=int, default=None, help="with --random: key size d "
                        "(default: 2)")
    parser.add_argument("--value-dim", type=int, default=None, help="with --random: value size "
                        "dv (default: 2)")
    parser.add_argument("--seed", type=int, default=None, help=seed_help + " (default: 0)")


def refuse_sizes(args, page=None):
    """Refuse, in one line, the sizes of --random (--keys, --dim, --value-dim) given for a
    page that has no random step (`page`, "--self" say; None: the worked example's): they
    would change nothing."""
    for name in ("keys", "dim", "value_dim"):
        if getattr(args, name) is not None:
            option = f"--{name.replace('_', '-')}"
            raise ValueError(message("example.worked_no_sizes", option=option) if page is None
                             else message("example.goes_with_random", option=option, page=page))


def example_from_options(args, seed_also=""):
    """The step the options of `draw` and `explore` choose, as keyword arguments of
    draw_attention_step and explore_attention_step: {} for the worked example, else the
    --random one, its sizes checked first (one line: "--keys must be an integer >= 1, got 0").
    Without --random, a size or a seed given is refused ("--keys goes with --random; ..."): the
    worked example is the same whatever they say. `seed_also`: the other options the seed goes
    with, for that message (message("example.or_self_block"): ", --self or --block")."""
    if args.random is None:
        refuse_sizes(args)
        if args.seed is not None:
            raise ValueError(message("example.seed_alone", also=seed_also))
        return {}
    sizes = {name: RANDOM_DEFAULTS[name] if getattr(args, name) is None else getattr(args, name)
             for name in RANDOM_DEFAULTS}
    why = message("example.too_many")
    check_number("--random", args.random, low=1, high=MAX_SIZE, integer=True, why=why)
    for name in ("keys", "dim", "value_dim"):
        check_number(f"--{name.replace('_', '-')}", sizes[name], low=1, high=MAX_SIZE,
                     integer=True, why=why)
    check_number("--seed", sizes["seed"], low=0, integer=True)
    query, keys, values = random_example(args.random, sizes["keys"], sizes["dim"],
                                         sizes["value_dim"], sizes["seed"])
    return dict(query=query, keys=keys, values=values)


def run_command(args, log=print):
    """Run `python -m attention draw` with parsed arguments; 0 on success, 1 with a one-line
    error on stderr otherwise."""
    import sys

    options = dict(hard=args.hard, backward_order=args.backward_order, rankdir=args.rankdir,
                   legend=args.legend, compact=args.compact, **example_from_options(args))
    from minigrad.viz.render import refuse_existing_drawing

    try:
        out = output_path(args.out, "attention-step.svg")
        refuse_existing_drawing(out, overwrite=args.overwrite)
        path = write_attention_step(out, engine=args.engine, overwrite=args.overwrite,
                                    **options)
    except (OSError, ValueError) as error:          # minigrad.viz.RenderError is an OSError
        print(minigrad_message("command.error", message=os_error_text(error)), file=sys.stderr)
        return 1
    log(minigrad_message("files.wrote_drawing", path=path, dot=path.with_suffix(".dot")))
    return 0
