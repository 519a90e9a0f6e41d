"""`python -m attention explore`: one attention step as a page that steps through its backward
pass op by op, in a browser (minigrad.viz.explore).

The step is the one `python -m attention draw` draws (attention/draw.py): by default the worked
example of docs/why-soft-attention-trains.md, q = (2, 1), four keys, values 10 20 30 40, whose
context is 24.28. The page shows the forward values, then each op of backward in the engine's
order: the softmax, built from primitive ops in its own scope, sends back a gradient to every
score; the keys get theirs through the score's matmul.

    python -m attention explore --out runs/attention-step.html
    python -m attention explore --predict --out runs/predict.html     # predict, then check
    python -m attention explore --random 3 --out runs/batch.html
    python -m attention explore --self --heads 2 --causal --predict --out runs/self.html
    python -m attention explore --block --causal --predict --out runs/block.html

`--self` and `--block` explore self-attention with its residual, and a pre-norm encoder block,
over a small seeded sequence (attention/explore_self.py).
"""

import numpy as np

from minigrad import language
from minigrad.files import default_path, output_path
from minigrad.messages import message
from minigrad.settings import check_number
from minigrad.viz.explorer.words import add_lang_option
from attention.draw import (
    add_example_options,
    attention_step,
    example_from_options,
    refuse_sizes,
    worked_example,
)
from attention.explore_self import D_MODEL, HEADS, explore_self_attention
from attention.messages import message as attention_message


def explore_attention_step(query=None, keys=None, values=None, hard=False, predict=False,
                           title=None, lang="en"):
    """The explorer (minigrad.viz.Explorer) of one attention step, the worked example unless
    query, keys and values are given. Its root is the context when that is one number, else
    the gradient arriving at the context is ones (the gradients of sum(context)). `lang`: the
    page's language, "en" or "ja"."""
    from minigrad.debug import local_names
    from minigrad.viz import explore

    if query is None:
        query, keys, values = worked_example()
    with local_names() as found:                # scores, weights, context...
        _, _, context = attention_step(query, keys, values, hard)
    grad = None if context.size == 1 else np.ones_like(context.data)     # d sum(context)
    if title is None and lang == "ja":
        title = "アテンションの 1 ステップ (" + ("ハード、argmax" if hard
                                               else "ソフト、ソフトマックス")
        title += "): 演算ごとの逆伝播" + ("" if grad is None else " (sum(context) の勾配)")
    elif title is None:
        title = "One attention step, " + ("hard (argmax)" if hard else "soft (softmax)")
        title += ": backward, op by op" + ("" if grad is None else " (of sum(context))")
    return explore(context, grad=grad, variables=found, predict=predict, title=title, lang=lang)


def add_command(commands):
    """Register the `explore` subcommand on an argparse subparsers object."""
    p = commands.add_parser("explore", help="write a page that steps through one attention "
                            "step's backward pass (or self-attention's, or a Transformer "
                            "block's), op by op, in a browser")
    p.add_argument("--out", help="the page (.html) (default: "
                   f"{default_path('attention-step.html')})")
    p.add_argument("--overwrite", action="store_true", help="replace a file there")
    p.add_argument("--predict", action="store_true",
                   help="ask for chosen gradients before showing them")
    add_example_options(p, seed_help="with --random, --self or --block: seeds the numbers")
    p.add_argument("--self", dest="self_attention", action="store_true",
                   help="self-attention with its residual, y = x + MultiHeadAttention(x), over "
                   f"4 seeded positions of d_model {D_MODEL} (float64), instead of one step")
    p.add_argument("--block", action="store_true", help="a whole pre-norm encoder block "
                   "(layer norm, self-attention, residual, feed-forward, residual)")
    p.add_argument("--heads", type=int, default=None, help=f"with --self or --block: the "
                   f"number of attention heads, dividing d_model {D_MODEL} (default: {HEADS})")
    p.add_argument("--causal", action="store_true", help="with --self or --block: the causal "
                   "mask, each position attends itself and the positions before it")
    p.add_argument("--composed", action="store_true", help="with --block: its layer norms from "
                   "primitive ops (mean, subtract, square, ...), a step each, not one op each")
    add_lang_option(p)
    return p


def self_attention_options(args):
    """The keyword arguments of explore_self_attention that --self or --block choose, their
    options checked first (one line: "--heads must be an integer >= 1, got 0"); None without
    either. The options of one attention step are refused with them (--hard, --random and its
    sizes), and theirs without; so are --self and --block together."""
    chosen = args.self_attention or args.block
    if args.self_attention and args.block:
        raise ValueError(attention_message("explore.self_and_block"))
    if not chosen:
        for option, given in (("--heads", args.heads is not None), ("--causal", args.causal),
                              ("--composed", args.composed)):
            if given:
                raise ValueError(attention_message("explore.needs_self_or_block",
                                                   option=option))
        return None
    if args.composed and not args.block:
        raise ValueError(attention_message("explore.composed_self"))
    page = "--block" if args.block else "--self"
    for option, given in (("--hard", args.hard), ("--random", args.random is not None)):
        if given:
            raise ValueError(attention_message("explore.one_step", option=option, page=page))
    refuse_sizes(args, page)
    heads = HEADS if args.heads is None else args.heads
    check_number("--heads", heads, low=1, integer=True)
    if D_MODEL % heads:
        raise ValueError(attention_message("explore.heads_divide", heads=heads, d_model=D_MODEL))
    seed = 0 if args.seed is None else args.seed
    check_number("--seed", seed, low=0, integer=True)
    return dict(heads=heads, causal=args.causal, block=args.block, seed=seed,
                composed=args.composed)


def run_command(args, log=print):
    """Run `python -m attention explore` with parsed arguments: 0 on success. A bad option is a
    one-line error (minigrad.command.run writes it)."""
    from minigrad.viz.explorer.page import save_page

    chosen = self_attention_options(args)
    lang = args.lang or language.current()      # the page's language: --lang, else the
    if chosen is not None:                      # messages' (the locale's)
        page = explore_self_attention(predict=args.predict, lang=lang, **chosen)
    else:
        page = explore_attention_step(hard=args.hard, predict=args.predict, lang=lang,
                                      **example_from_options(
                                          args, attention_message("example.or_self_block")))
    out = output_path(args.out, "attention-step.html")
    log(message("files.wrote", path=save_page(page, out, args.overwrite)))
    return 0
