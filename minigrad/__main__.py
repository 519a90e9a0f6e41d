"""`python -m minigrad demo`: the engine on its own — gradients checked, then a tiny network
trained with nothing but tensors, ops and backward."""

import sys

import numpy as np

import minigrad.functional as F
from minigrad import Tensor, gradcheck
from minigrad.command import Parser, add_debug_option, debug_wanted, run as run_command
from minigrad.language import add_language_option
from minigrad.messages import message
from minigrad.settings import check_number


def demo(steps=300, seed=0):
    rng = np.random.default_rng(seed)

    # 1. A gradient checked against finite differences.
    q = Tensor(rng.standard_normal(3), requires_grad=True, name="q")
    keys = Tensor(rng.standard_normal((5, 3)), requires_grad=True, name="keys")
    gradcheck(lambda q, k: F.softmax(k @ q) @ k, q, keys)
    print(message("engine_demo.gradcheck"))

    # 2. A two-layer network learns XOR-like labels from 2-d points.
    x = rng.standard_normal((256, 2))
    labels = ((x[:, 0] > 0) ^ (x[:, 1] > 0)).astype(np.int64)
    w1 = Tensor(rng.standard_normal((2, 16)) * 0.5, requires_grad=True, name="w1")
    b1 = Tensor(np.zeros(16), requires_grad=True, name="b1")
    w2 = Tensor(rng.standard_normal((16, 2)) * 0.5, requires_grad=True, name="w2")
    b2 = Tensor(np.zeros(2), requires_grad=True, name="b2")
    params = [w1, b1, w2, b2]
    for step in range(steps + 1):
        hidden = (Tensor(x) @ w1 + b1).tanh()                 # (256, 16)
        logits = hidden @ w2 + b2                             # (256, 2)
        loss = F.cross_entropy(logits, labels)
        for p in params:
            p.zero_grad()
        loss.backward()
        for p in params:                                      # plain gradient descent
            p.data = p.data - 0.5 * p.grad
        if step % 50 == 0:
            accuracy = np.mean(logits.data.argmax(-1) == labels)
            print(message("engine_demo.step", step=step, loss=loss.item(), accuracy=accuracy))
    return accuracy


def main(argv=None):
    parser = Parser(prog="python -m minigrad")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("demo", help="check a gradient, then train a tiny network")
    run.add_argument("--steps", type=int, default=300, help="training steps of the network")
    run.add_argument("--seed", type=int, default=0, help="seeds the data and the weights")
    add_debug_option(parser, sub)
    add_language_option(parser, sub)
    args = parser.parse_args(argv)
    return run_command(lambda: command(args), debug=debug_wanted(args))


def command(args):
    demo(check_number("--steps", args.steps, low=0, integer=True),
         check_number("--seed", args.seed, low=0, integer=True))


if __name__ == "__main__":
    sys.exit(main())
