"""`python -m minigrad.viz`: graphs drawn from the command line.

    python -m minigrad.viz lstm-cell                    one LSTM step, op by op: runs/lstm-cell.svg
    python -m minigrad.viz lstm-cell --fused --out runs/fused.svg   the same step as one fused op
    python -m minigrad.viz render graph.dot --out runs/graph.png    a DOT file, chosen engine
    python -m minigrad.viz explore lstm-cell            step through its backward pass:
                                                        runs/lstm-cell.html

Without --out, what a command writes goes under runs/ (made if missing); a file named with --out
goes where it says, into a folder that exists.

Every failure is one line on stderr and a non-zero exit status.
"""

import dataclasses
import sys

import numpy as np

from minigrad import language
from minigrad.command import Parser, add_debug_option, debug_wanted, run
from minigrad.files import default_path, open_regular, output_path, refuse_existing
from minigrad.language import add_language_option
from minigrad.messages import message
from minigrad.viz.explorer.page import save_page
from minigrad.viz.explorer.words import add_lang_option
from minigrad.viz.render import (
    ENGINES,
    available_engines,
    refuse_existing_drawing,
    refuse_format,
    render,
)


@dataclasses.dataclass(frozen=True)
class LSTMCellConfig:
    input_size: int = 2
    hidden_size: int = 2
    batch: int = 1
    fused: bool = False             # one FusedLSTMCell op instead of the primitive ops
    seed: int = 0
    backward_order: bool = False
    show_saved: bool = False
    collapse: bool = False          # draw the whole cell as one box
    legend: bool = True             # the key to colours and line styles, under the title


def lstm_cell_step(config=LSTMCellConfig()):
    """One LSTM step h', c' = cell(x, (h, c)) on random inputs. Returns (loss, cell, title):
    loss = sum(h'), the root whose gradients the drawing and the explorer show."""
    from minigrad import Tensor, manual_seed, nn, scope

    manual_seed(config.seed)
    cell = nn.LSTMCell(config.input_size, config.hidden_size, fused=config.fused)
    rng = np.random.default_rng(config.seed)
    shapes = {"x": (config.batch, config.input_size), "h": (config.batch, config.hidden_size),
              "c": (config.batch, config.hidden_size)}
    x, h, c = (Tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True,
                      name=name) for name, shape in shapes.items())
    with scope("lstm cell"):
        h_new, c_new = cell(x, (h, c))                  # (B, H) each
    h_new.name, c_new.name = "h'", "c'"
    loss = h_new.sum()
    loss.name = "sum(h')"
    kind = "one fused op" if config.fused else "primitive ops"
    return loss, cell, f"One LSTM step ({kind}): values, and gradients of sum(h')"


def draw_lstm_cell(config=LSTMCellConfig()):
    """The drawing of one LSTM step (lstm_cell_step), with the gradients of sum(h')."""
    from minigrad.viz import draw_graph

    loss, cell, title = lstm_cell_step(config)
    return draw_graph(loss, names=cell, backward_order=config.backward_order,
                      show_saved=config.show_saved,
                      collapse=["lstm cell"] if config.collapse else None, legend=config.legend,
                      title=title)


# Where predict mode asks on the LSTM step of primitive ops: each gate (the products
# o * tanh(c'), i * g and f * c, and the sigmoids and tanhs that make the gates), the matmuls,
# and, with a batch of several rows, the Add that broadcasts the biases over it (as the
# default rule does). The fused cell is one op: it asks by the default rule.
LSTM_CELL_ASKS = ("MatMul", "Mul", "Sigmoid", "Tanh")


def lstm_cell_asks(op):
    """Whether predict mode asks at op on the LSTM step (LSTM_CELL_ASKS, or a broadcasting Add)."""
    if type(op).__name__ in LSTM_CELL_ASKS:
        return True
    shapes = [x.shape for x in op.inputs]
    size = int(np.prod(np.broadcast_shapes(*shapes))) if type(op).__name__ == "Add" else 0
    return any(int(np.prod(shape)) < size for shape in shapes)


def explore_lstm_cell(config=LSTMCellConfig(), predict=False, lang="en"):
    """The explorer of one LSTM step (lstm_cell_step): its backward pass, op by op. In predict
    mode the cell of primitive ops asks where `lstm_cell_asks` says. `lang`: the page's
    language, "en" or "ja"."""
    from minigrad.debug import local_names
    from minigrad.viz import explore

    with local_names() as found:                    # the cell's gates, i, f, g, o, ...
        loss, cell, title = lstm_cell_step(config)
    asks = lstm_cell_asks if predict and not config.fused else None
    if lang == "ja":
        kind = "ひとつの融合演算" if config.fused else "基本演算"
        title = f"LSTM の 1 ステップ ({kind}): sum(h') の逆伝播"
    return explore(loss, names=cell, variables=found,
                   collapse=["lstm cell"] if config.collapse else None,
                   predict=predict, predict_at=asks,
                   title=title.replace("values, and gradients", "backward"), lang=lang)


def main(argv=None):
    parser = Parser(prog="python -m minigrad.viz", description=__doc__.split(
        "\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    cell = commands.add_parser("lstm-cell", help="draw one LSTM step with values and gradients")
    cell.add_argument("--out", help="the picture (.svg, .png, .pdf); the DOT text goes beside "
                      f"it (.dot) (default: {default_path('lstm-cell.svg')})")
    add_cell_options(cell)
    cell.add_argument("--overwrite", action="store_true", help="replace the picture and its "
                      ".dot file if they exist (without it, an existing one is refused)")
    cell.add_argument("--backward-order", action="store_true",
                      help="number the ops as backward visits them; gradients on the arrows")
    cell.add_argument("--show-saved", action="store_true", help="what each op saves for backward")
    cell.add_argument("--no-legend", dest="legend", action="store_false",
                      help="leave out the key to colours and line styles")
    cell.add_argument("--engine", choices=ENGINES, default="auto",
                      help="the system dot, or the Graphviz bundled in pygraphviz")

    explore = commands.add_parser("explore", help="write a page that steps through a graph's "
                                  "backward pass, op by op, in a browser")
    explore.add_argument("graph", choices=["lstm-cell"], help="the graph: lstm-cell, one LSTM "
                         "step")
    explore.add_argument("--out", help="the page (.html) (default: "
                         f"{default_path('lstm-cell.html')})")
    explore.add_argument("--overwrite", action="store_true", help="replace a file there")
    explore.add_argument("--predict", action="store_true", help="ask for chosen gradients "
                         "before showing them")
    add_cell_options(explore)
    add_lang_option(explore)

    dot = commands.add_parser("render", help="render a DOT file")
    dot.add_argument("source", help="a .dot file")
    dot.add_argument("--out", required=True, help="the picture (.svg, .png, .pdf)")
    dot.add_argument("--overwrite", action="store_true", help="replace the picture if it exists "
                     "(without it, an existing one is refused)")
    dot.add_argument("--engine", choices=ENGINES, default="auto",
                     help="the system dot, or the Graphviz bundled in pygraphviz")

    commands.add_parser("engines", help="list the engines that can render here")

    add_debug_option(parser, commands)
    add_language_option(parser, commands)     # explore's --lang is its page's too
    args = parser.parse_args(argv)
    if args.command in ("lstm-cell", "explore"):
        for name in ("input_size", "hidden_size", "batch"):
            if getattr(args, name) < 1:
                parser.error(message("viz.at_least_one", option=name.replace("_", "-")))
        if args.seed < 0:
            parser.error(message("viz.seed", seed=args.seed))
    return run(lambda: command(args), debug=debug_wanted(args))


def add_cell_options(parser):
    defaults = LSTMCellConfig()
    helps = {"input_size": "the size of x", "hidden_size": "the size of h and c",
             "batch": "rows in the batch", "seed": "seeds the weights and the inputs"}
    for option, help in helps.items():
        parser.add_argument(f"--{option.replace('_', '-')}", type=int,
                            default=getattr(defaults, option), help=help)
    parser.add_argument("--fused", action="store_true", help="the fused op (one box) instead")
    parser.add_argument("--collapse", action="store_true", help="draw the cell as one box")


def cell_config(args):
    return LSTMCellConfig(**{f.name: getattr(args, f.name, getattr(LSTMCellConfig, f.name))
                             for f in dataclasses.fields(LSTMCellConfig)})


def command(args):
    if args.command == "lstm-cell":
        out = output_path(args.out, "lstm-cell.svg")
        refuse_existing_drawing(out, overwrite=args.overwrite)
        path = render(draw_lstm_cell(cell_config(args)), out, engine=args.engine,
                      overwrite=args.overwrite)
        print(message("files.wrote_drawing", path=path, dot=path.with_suffix(".dot")))
    elif args.command == "explore":
        page = explore_lstm_cell(cell_config(args), predict=args.predict,
                                 lang=args.lang or language.current())
        out = output_path(args.out, "lstm-cell.html")
        print(message("files.wrote", path=save_page(page, out, args.overwrite)))
    elif args.command == "render":
        refuse_format(args.out)
        with open_regular(args.source, message("files.what_dot")) as file:   # a FIFO: blocks
            source = file.read()
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(message("render.not_utf8", path=args.source, byte=source[error.start],
                                     position=error.start + 1)) from None
        if not source.strip():                              # /dev/null's copy, say
            raise ValueError(message("render.empty", path=args.source))
        refuse_existing(args.out, args.overwrite)
        print(message("files.wrote",
                      path=render(source, args.out, engine=args.engine, overwrite=True)))
    else:
        print(", ".join(available_engines()) or message("render.none_available"))


if __name__ == "__main__":
    sys.exit(main())
