"""`python -m minigrad.viz`: graphs drawn from the command line.

    python -m minigrad.viz lstm-cell --out lstm-cell.svg       one LSTM step, op by op
    python -m minigrad.viz lstm-cell --fused --out fused.svg   the same step as one fused op
    python -m minigrad.viz render graph.dot --out graph.png    a DOT file, with a chosen engine

Every failure is one line on stderr and a non-zero exit status.
"""

import dataclasses
import sys

import numpy as np

from minigrad.command import Parser, add_debug_option, debug_wanted, run
from minigrad.viz.render import ENGINES, available_engines, render


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


def draw_lstm_cell(config=LSTMCellConfig()):
    """One LSTM step h', c' = cell(x, (h, c)) on random inputs, with the gradients of sum(h')."""
    from minigrad import Tensor, manual_seed, nn, scope
    from minigrad.viz import draw_graph

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
    return draw_graph(loss, names=cell, backward_order=config.backward_order,
                      show_saved=config.show_saved,
                      collapse=["lstm cell"] if config.collapse else None, legend=config.legend,
                      title=f"One LSTM step ({kind}): values, and gradients of sum(h')")


def main(argv=None):
    parser = Parser(prog="python -m minigrad.viz", description=__doc__.split(
        "\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    cell = commands.add_parser("lstm-cell", help="draw one LSTM step with values and gradients")
    cell.add_argument("--out", default="lstm-cell.svg", help="the picture (.svg, .png, .pdf); "
                      "the DOT text goes beside it (.dot)")
    defaults = LSTMCellConfig()
    for option in ("input_size", "hidden_size", "batch", "seed"):
        cell.add_argument(f"--{option.replace('_', '-')}", type=int,
                          default=getattr(defaults, option))
    cell.add_argument("--overwrite", action="store_true", help="replace a picture or .dot file "
                      "there that no earlier drawing wrote")
    cell.add_argument("--fused", action="store_true", help="the fused op (one box) instead")
    cell.add_argument("--backward-order", action="store_true",
                      help="number the ops as backward visits them; gradients on the arrows")
    cell.add_argument("--show-saved", action="store_true", help="what each op saves for backward")
    cell.add_argument("--collapse", action="store_true", help="draw the cell as one box")
    cell.add_argument("--no-legend", dest="legend", action="store_false",
                      help="leave out the key to colours and line styles")
    cell.add_argument("--engine", choices=ENGINES, default="auto")

    dot = commands.add_parser("render", help="render a DOT file")
    dot.add_argument("source", help="a .dot file")
    dot.add_argument("--out", required=True, help="the picture (.svg, .png, .pdf)")
    dot.add_argument("--engine", choices=ENGINES, default="auto")

    commands.add_parser("engines", help="list the engines that can render here")

    add_debug_option(parser, commands)
    args = parser.parse_args(argv)
    if args.command == "lstm-cell":
        for name in ("input_size", "hidden_size", "batch"):
            if getattr(args, name) < 1:
                parser.error(f"--{name.replace('_', '-')} must be at least 1")
        if args.seed < 0:
            parser.error(f"--seed must be 0 or more, not {args.seed}")
    return run(lambda: command(args), debug=debug_wanted(args))


def command(args):
    if args.command == "lstm-cell":
        config = LSTMCellConfig(**{f.name: getattr(args, f.name)
                                   for f in dataclasses.fields(LSTMCellConfig)})
        path = render(draw_lstm_cell(config), args.out, engine=args.engine,
                      overwrite=args.overwrite)
        print(f"wrote {path}")
    elif args.command == "render":
        with open(args.source, encoding="utf-8") as file:
            source = file.read()
        print(f"wrote {render(source, args.out, engine=args.engine)}")
    else:
        print(", ".join(available_engines()) or "none: pip install pygraphviz, or install "
              "Graphviz (apt install graphviz, brew install graphviz, winget install graphviz)")


if __name__ == "__main__":
    sys.exit(main())
