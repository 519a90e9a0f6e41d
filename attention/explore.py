"""`python -m attention explore`: one attention step as a page that steps through its backward
pass op by op, in a browser (minigrad.viz.explore).

The step is the one `python -m attention draw` draws (attention/draw.py): by default the worked
example of docs/why-soft-attention-trains.md, q = (2, 1), four keys, values 10 20 30 40, whose
context is 24.28. The page shows the forward values, then each op of backward in the engine's
order: the softmax, built from primitive ops in its own scope, sends back a gradient to every
score; the keys get theirs through the score's matmul.

    python -m attention explore --out attention-step.html
    python -m attention explore --predict --out predict.html     # predict, then check
    python -m attention explore --random 3 --out batch.html
"""

import numpy as np

from attention.draw import add_example_options, attention_step, example_from_options, worked_example


def explore_attention_step(query=None, keys=None, values=None, hard=False, predict=False,
                           title=None):
    """The explorer (minigrad.viz.Explorer) of one attention step, the worked example unless
    query, keys and values are given. Its root is the context when that is one number, else
    the gradient arriving at the context is ones (the gradients of sum(context))."""
    from minigrad.viz import explore

    if query is None:
        query, keys, values = worked_example()
    _, _, context = attention_step(query, keys, values, hard)
    grad = None if context.size == 1 else np.ones_like(context.data)     # d sum(context)
    if title is None:
        title = "One attention step, " + ("hard (argmax)" if hard else "soft (softmax)")
        title += ": backward, op by op" + ("" if grad is None else " (of sum(context))")
    return explore(context, grad=grad, predict=predict, title=title)


def add_command(commands):
    """Register the `explore` subcommand on an argparse subparsers object."""
    p = commands.add_parser("explore", help="write a page that steps through one attention "
                            "step's backward pass, op by op, in a browser")
    p.add_argument("--out", default="attention-step.html", help="the page (.html)")
    p.add_argument("--overwrite", action="store_true", help="replace a file there")
    p.add_argument("--predict", action="store_true",
                   help="ask for chosen gradients before showing them")
    add_example_options(p)
    return p


def run_command(args, log=print):
    """Run `python -m attention explore` with parsed arguments: 0 on success. A bad option is a
    one-line error (minigrad.command.run writes it)."""
    from minigrad.viz.explorer.page import save_page

    page = explore_attention_step(hard=args.hard, predict=args.predict,
                                  **example_from_options(args))
    log(f"wrote {save_page(page, args.out, args.overwrite)}")
    return 0
