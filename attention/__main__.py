"""`python -m attention demo`: soft attention learns a retrieval task, hard attention cannot.

    python -m attention demo                 # prints gradients and learning curves, writes a PNG
    python -m attention demo --out figures --seed 3
"""

import argparse
import dataclasses
import sys

from attention.demo import DemoConfig, demo


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m attention")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("demo", help="train soft and hard attention from the same start")
    run.add_argument("--out", default=".", help="directory for soft-vs-hard-attention.png "
                     "(default: the current directory)")
    defaults = DemoConfig()
    for option in ("seed", "steps"):
        run.add_argument(f"--{option}", type=int, default=getattr(defaults, option))
    args = parser.parse_args(argv)
    if args.steps < 1:
        run.error(f"--steps must be at least 1, not {args.steps}")
    config = dataclasses.replace(defaults, seed=args.seed, steps=args.steps)
    demo(config, out=args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
