"""`python -m attention demo`: soft attention learns a retrieval task, hard attention cannot.
`python -m attention draw`: one attention step as a graph, with values and gradients.
`python -m attention explore`: the same step as a page that steps through its backward pass;
with --self or --block, self-attention or a Transformer block (attention/explore_self.py).
`python -m attention scaling`: why the Transformer divides its scores by sqrt(d_k).

    python -m attention demo                 # prints gradients and learning curves, writes a PNG
                                             # to runs/attention-demo/
    python -m attention demo --out runs/seed-3 --seed 3
    python -m attention draw --out runs/attention-step.svg     # the worked example
    python -m attention draw --hard --out runs/hard-attention-step.svg
    python -m attention draw --rankdir LR --out runs/wide.svg  # the frames as rows, not columns
    python -m attention explore --out runs/attention-step.html --predict
    python -m attention explore --self --heads 2 --causal --predict --out runs/self.html
    python -m attention explore --block --causal --out runs/block.html
    python -m attention scaling --out runs/scaling.png
"""

import dataclasses
import sys

from minigrad.command import Parser, add_debug_option, debug_wanted, run as run_command
from minigrad.language import add_language_option
from minigrad.settings import check_number
from attention import draw, explore, scaling
from attention.demo import DemoConfig, demo
from attention.messages import message

# runs/ holds what the commands make (git ignores it): a picture is not left among the sources.
DEMO_OUT = "runs/attention-demo"


def main(argv=None):
    parser = Parser(prog="python -m attention")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("demo", help="train soft and hard attention from the same start")
    run.add_argument("--out", default=DEMO_OUT, help="directory for soft-vs-hard-attention.png "
                     f"(default: {DEMO_OUT}, beside make demo's runs/demo)")
    defaults = DemoConfig()
    run.add_argument("--seed", type=int, default=defaults.seed, help="seeds the task and the "
                     "weights")
    run.add_argument("--steps", type=int, default=defaults.steps, help="training steps of each "
                     "model")
    draw.add_command(commands)
    explore.add_command(commands)
    scaling.add_command(commands)
    add_debug_option(parser, commands)
    add_language_option(parser, commands)         # explore's --lang is its page's too
    args = parser.parse_args(argv)
    if args.command == "demo" and args.steps < 1:
        run.error(message("command.steps", steps=args.steps))
    return run_command(lambda: command(args, defaults), debug=debug_wanted(args))


def command(args, defaults):
    if args.command == "draw":
        return draw.run_command(args)
    if args.command == "explore":
        return explore.run_command(args)
    check_number("--seed", args.seed, low=0, integer=True)
    if args.command == "scaling":
        return scaling.run_command(args)
    demo(dataclasses.replace(defaults, seed=args.seed, steps=args.steps), out=args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
