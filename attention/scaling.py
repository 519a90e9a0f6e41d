"""Why the Transformer divides its scores by √d_k (Vaswani et al., 2017, section 3.2.1), measured.

    python -m attention scaling --out runs/scaling.png

"We suspect that for large values of d_k, the dot products grow large in magnitude, pushing the
softmax function into regions where it has extremely small gradients." For a query and a key
with d_k independent entries of mean 0 and variance 1, q · k is a sum of d_k such products: its
variance is d_k. The scores of one query are then spread by √d_k, the softmax of widely spread
scores is nearly one-hot, and a nearly one-hot softmax passes almost no gradient back (its
derivative is diag(a) - a aᵀ, nearly zero when a is). Dividing by √d_k brings the spread back to
1 whatever d_k is.

For each d_k, `measure` draws random queries, keys and values, attends with the scores
unscaled (q · k) and scaled (q · k / √d_k), sends a random gradient back from the output, and
records for each way:

    entropy      of the weights, in nats, averaged over the queries: ln n for uniform weights,
                 0 for a one-hot choice
    saturated    the share of queries whose largest weight is above 0.99
    score_grad   the median norm of dL/ds, the gradient reaching the scores (the softmax's input)
    query_grad   the median norm of dL/dq, the gradient reaching the query (what would train the
                 projection that made it)

Every gradient comes from minigrad's backward, through `attention.dot_product_attention`.
"""

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from minigrad import Tensor
from minigrad.files import default_path, output_path
from attention.functional import attend, dot_product_attention
from attention.messages import fit, message, width

WAYS = ("unscaled", "scaled")


@dataclass(frozen=True)
class ScalingConfig:
    sizes: tuple = (1, 4, 16, 64, 256, 1024)    # d_k
    keys: int = 16              # n, candidates per query
    value_size: int = 8         # dv
    queries: int = 256          # per d_k; at d_k = 1024 the keys take 256 * 16 * 1024 * 8 bytes
    seed: int = 0


def measure(config=None):
    """{"d_k": [...], "unscaled": {measure: [one per d_k]}, "scaled": {...}}: see the module.
    config: a ScalingConfig (None: the defaults)."""
    config = ScalingConfig() if config is None else config
    rng = np.random.default_rng(config.seed)
    results = {"d_k": list(config.sizes), "keys": config.keys,
               **{way: {"entropy": [], "saturated": [], "score_grad": [], "query_grad": []}
                  for way in WAYS}}
    for d in config.sizes:
        q = rng.standard_normal((config.queries, d))                            # (B, d)
        k = rng.standard_normal((config.queries, config.keys, d))               # (B, n, d)
        v = rng.standard_normal((config.queries, config.keys, config.value_size))  # (B, n, dv)
        upstream = rng.standard_normal((config.queries, config.value_size))     # dL/dcontext
        for way in WAYS:
            scale = 1 / math.sqrt(d) if way == "scaled" else 1.0
            row = results[way]
            weights, score_grad = _through_softmax(q, k, v, upstream, scale)
            row["entropy"].append(float(entropy(weights).mean()))
            row["saturated"].append(float(np.mean(weights.max(axis=-1) > 0.99)))
            row["score_grad"].append(float(np.median(np.linalg.norm(score_grad, axis=-1))))
            row["query_grad"].append(float(np.median(np.linalg.norm(
                _query_grad(q, k, v, upstream, way == "scaled"), axis=-1))))
    return results


def _through_softmax(q, k, v, upstream, scale):
    """The weights (B, n) and dL/ds (B, n) for the scores s = scale * q · k, made a leaf so that
    backward stops there and leaves their gradient in s.grad."""
    scores = Tensor(scale * np.einsum("bd,bnd->bn", q, k)[:, None, :],
                    requires_grad=True)                                         # (B, 1, n)
    context, weights = attend(scores, Tensor(v))                                # (B, 1, dv)
    (context.squeeze(-2) * Tensor(upstream)).sum().backward()
    return weights.data[:, 0], scores.grad[:, 0]


def _query_grad(q, k, v, upstream, scaled):
    """dL/dq (B, d) through the whole attention: scores, softmax and mix."""
    query = Tensor(q, requires_grad=True)
    context, _ = dot_product_attention(query, Tensor(k), Tensor(v), scale=True if scaled else None)
    (context * Tensor(upstream)).sum().backward()
    return query.grad


def entropy(weights):
    """-Σ a log a along the last axis, in nats (0 log 0 = 0)."""
    logs = np.log(np.where(weights > 0, weights, 1.0))
    return -(weights * logs).sum(axis=-1)


def table(results):
    """The measurements as lines of text, one per d_k, in the language of the messages: each
    column as wide as its numbers, or as its heading when that is wider (Japanese)."""
    ways = {way: message(f"scaling.{way}") for way in WAYS}
    entropy, saturated = message("scaling.entropy"), message("scaling.saturated")
    w = max(8, *(width(name) for name in ways.values()))
    a, b = max(7, width(entropy)), max(9, width(saturated))
    lines = [f"{'d_k':>5}  {'':{w}} {fit(entropy, a)} {fit(saturated, b)} {'|dL/ds|':>9} "
             f"{'|dL/dq|':>9}"]
    for i, d in enumerate(results["d_k"]):
        for way in WAYS:
            row = results[way]
            lines.append(f"{d if way == WAYS[0] else '':>5}  {fit(ways[way], w, '<')} "
                         f"{row['entropy'][i]:{a}.3f} {row['saturated'][i]:{b}.1%} "
                         f"{row['score_grad'][i]:9.3g} {row['query_grad'][i]:9.3g}")
    lines.append(message("scaling.uniform", keys=results["keys"],
                         value=math.log(results["keys"])))
    return lines


def plot_scaling(results, path=None, overwrite=False):
    """Entropy and the two gradients against d_k, unscaled and scaled: a matplotlib Figure
    (attention.figures), also written to `path` when one is given (over a file there only if an
    earlier figure wrote it, or with `overwrite`: attention.figures.save)."""
    from attention.figures import Figure, save

    figure = Figure(figsize=(11, 3.6), layout="constrained")
    axes = figure.subplots(1, 3)
    panels = (("entropy", "softmax entropy (nats)", False),
              ("score_grad", "|dL/ds|, at the scores", True),
              ("query_grad", "|dL/dq|, at the query", True))
    for ax, (key, label, log) in zip(axes, panels):
        for way, style in zip(WAYS, ("o-", "s-")):
            ax.plot(results["d_k"], results[way][key], style, label=f"{way}: q·k"
                    + (" / √d_k" if way == "scaled" else ""))
        ax.set_xscale("log", base=2)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("d_k")
        ax.set_title(label)
    axes[0].axhline(math.log(results["keys"]), color="grey", linestyle=":",
                    label=f"uniform (ln {results['keys']})")
    axes[0].set_ylim(bottom=0)
    axes[0].legend(fontsize="small")
    figure.suptitle("Why divide by √d_k: unscaled scores saturate the softmax as d_k grows "
                    "(random q, k, v; median over queries)")
    if path is not None:
        save(figure, path, dpi=90, overwrite=overwrite)
    return figure


def run_command(args):
    """`python -m attention scaling`: print the table, write the figure (over a file that no
    earlier figure wrote only with --overwrite)."""
    if args.out is not None and Path(args.out).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ValueError(message("scaling.out_format", out=args.out))
    results = measure(ScalingConfig(seed=args.seed))
    out = Path(output_path(args.out, "scaling.png"))
    print("\n".join(table(results)))
    plot_scaling(results, out, overwrite=args.overwrite)
    print(message("scaling.figure", path=out))


def add_command(commands):
    p = commands.add_parser("scaling", help="why scores are divided by sqrt(d_k): softmax "
                            "entropy and gradients as d_k grows")
    p.add_argument("--out", help=f"the figure (default: {default_path('scaling.png')})")
    p.add_argument("--seed", type=int, default=0, help="seeds the random queries and keys")
    p.add_argument("--overwrite", action="store_true", help="replace a file at --out that no "
                   "earlier figure wrote")
