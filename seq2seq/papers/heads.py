"""head-alignments: does one of the Transformer's cross-attention heads carry the crossing verb?

    python -m seq2seq head-alignments --out runs/head-alignments --plot

`alignments` (seq2seq.papers.alignments) finds that the LSTM's single attention puts nearly all
of a crossing verb's weight on the Japanese verb at the end of its clause. A Transformer's
decoder attends to the source in every layer, with several heads each (seq2seq.models.
transformer: decoder.cross_weights). Here Transformers train on toy-ja-en, one per seed, and
every layer's every head is measured as alignments measures the LSTM (alignments.measure, with
its expected_cells), on the held-out sentences the model translates right: the mean weight on
the expected cell and the share of rows whose largest weight is there, for the crossing verb's
rows and for all content words'. Each layer's mean over its heads is measured too; the last
layer's is what `translate` draws (Translation.weights).

A head's rows are those decoding wrote (Translator.cross_attention: the tokens written, run
through the decoder again, which the causal mask makes the same rows). Layers and heads are
numbered from 0, as the drawings name them ("layer 1 head 1": the second layer's second head)
and as PyTorch does; a head's number means nothing across seeds: each seed's model sorts its
heads its own way.

Writes OUT/seed-0/, OUT/seed-1/, ... (run folders, as `train` makes them), head-alignments.json
and, with --plot, head-alignments.png (plots.plot_head_alignments: the best head for the crossing
verb of the first seed that wrote one right, beside its layer's mean, on one held-out sentence).
"""

import dataclasses
from pathlib import Path

import numpy as np

from minigrad.settings import check_number
from seq2seq.commands import runs
from seq2seq.commands.demo import held_out_pairs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.papers import swap
from seq2seq.papers.alignments import KIND_NAMES, examples_to_draw, measure
from seq2seq.papers.folder import experiment_folder, trained, write_json
from seq2seq.papers.table_text import cell

RESULTS = ("head-alignments.json", "head-alignments.png")
KINDS = ("crossing verb", "content words")
MAX_SEEDS = 10                  # a model each: more is a typo (the command line asks for 2)


def head_config(out, seed, epochs=8):
    """The Transformer of seed `seed`, in out/seed-SEED: train's defaults for it (d_model 64,
    4 heads, 2 layers, d_ff 256, pre-norm), on the data alignments' LSTM learns from (4,000
    toy-ja-en pairs of up to 12 words, batches of 64), the learning rate peaking at 0.002 after
    100 warm-up updates (two epochs)."""
    from seq2seq.commands.arch import with_defaults
    return with_defaults(TrainConfig(task="toy-ja-en", arch="transformer",
                                     out=str(Path(out) / f"seed-{seed}"), batch_size=64,
                                     epochs=epochs, num_examples=4000, max_len=12, lr=2e-3,
                                     warmup=100, seed=seed, progress=False))


def measure_heads(translations, weights, references, layers, heads):
    """{"layer l head h" and "layer l mean": alignments.measure of those weights}, l and h from
    0 (as the drawings' scopes), for a model of `layers` layers of `heads` heads. `weights`: one
    (L, H, T, S) array per translation (Translator.cross_attention), or None for one that is not
    its reference (measure skips those)."""
    result = {}
    for layer in range(layers):
        for head in [*range(heads), None]:                              # None: their mean
            views = [t if w is None else dataclasses.replace(t, weights=(        # (T, S)
                w[layer].mean(axis=0) if head is None else w[layer, head]))
                for t, w in zip(translations, weights)]
            name = f"layer {layer} " + ("mean" if head is None else f"head {head}")
            result[name] = measure("toy-ja-en", views, references)
    return result


def best_head(heads):
    """The head (not a mean) with the most mass on the crossing verb's expected cells; None
    if no sentence translated right had a crossing verb."""
    names = [name for name in heads if not name.endswith("mean")
             and heads[name]["crossing verb"]["mass"] is not None]
    return max(names, key=lambda name: heads[name]["crossing verb"]["mass"], default=None)


def head_alignments(out="runs/head-alignments", seeds=3, epochs=8, plot=False, log=say,
                    n_held_out=500, overwrite=False, configs=None):
    """Train a Transformer per seed (0 ... seeds - 1) for `epochs` epochs, measure every head on
    n_held_out held-out sentences; returns the result written to head-alignments.json.
    `configs` replaces the models' configs (a test's smaller models)."""
    check_number("seeds", seeds, integer=True, low=1, high=MAX_SEEDS,
                 why=message("papers.why_seeds"))
    check_settings(epochs=epochs)
    out = Path(runs.check_out(out))
    configs = configs or {f"seed-{seed}": head_config(out, seed, epochs)
                          for seed in range(seeds)}
    with experiment_folder(out, "head-alignments", configs, RESULTS, overwrite, log) as place:
        return _measure(place, configs, plot, log, n_held_out)


def _measure(out, configs, plot, log, n_held_out):
    result, shown = {"experiment": "head-alignments", "seeds": {}}, None
    for name, config, translator, _ in trained(configs, log, "papers.training_transformer"):
        pairs, _ = held_out_pairs(config, n_held_out, config.seed + 1)
        references = [r for _, r in pairs]
        translations = translator.translate([s for s, _ in pairs])
        right = [t.text == r for t, r in zip(translations, references)]
        weights = [translator.cross_attention(s, t) if ok else None         # (L, H, T, S)
                   for (s, _), t, ok in zip(pairs, translations, right)]
        heads = measure_heads(translations, weights, references,
                              translator.model.config["layers"], translator.model.config["heads"])
        best = best_head(heads)
        result["seeds"][name] = {"sentences": len(pairs), "exact_match": float(np.mean(right)),
                                 "best": best, "heads": heads}
        if shown is None and best is not None:          # the first seed with a crossing verb
            shown = example_to_draw(translations, weights, right, best)
    for line in table(result):
        log(line)
    write_json(out / RESULTS[0], result)
    if plot and shown is not None:
        from seq2seq.papers.plots import plot_head_alignments
        plot_head_alignments(*shown, path=out / RESULTS[1], overwrite=True)    # claimed above
        swap.say(out, log, message("papers.written_both", out="{out}", figure=RESULTS[1],
                                   json=RESULTS[0]))
    else:
        swap.say(out, log, message("papers.written", out="{out}", json=RESULTS[0]) + (
            "" if not plot else message("papers.nothing_drawn")))
    return result


def example_to_draw(translations, weights, right, best):
    """One held-out sentence (as alignments picks them) drawn with the best head's weights and
    with its layer's mean: (two Translations, their titles); None if none was right."""
    drawn = examples_to_draw("toy-ja-en", translations, right)[:1]
    if not drawn or not right[translations.index(drawn[0])]:
        return None
    translation = drawn[0]
    w = weights[translations.index(translation)]                       # (L, H, T, S)
    layer, head = (int(word) for word in best.split()[1::2])
    return ([dataclasses.replace(translation, weights=w[layer, head]),
             dataclasses.replace(translation, weights=w[layer].mean(axis=0))],
            [f"{best} (the best for the crossing verb)",
             f"layer {layer}, the mean of its {w.shape[1]} heads"])


def table(result):
    """The result as lines: for each seed, a row per head and per layer's mean; then each
    seed's best head."""
    lines = []
    for name, run in result["seeds"].items():
        rows = next(iter(run["heads"].values()))
        lines += ["\n" + message("papers.heads_seed", name=name, exact=run["exact_match"],
                                  count=run["sentences"], verbs=rows["crossing verb"]["rows"],
                                  words=rows["content words"]["rows"]),
                  f"{'':16} " + " ".join(cell(message(KIND_NAMES[kind]), 16, ">")
                                         for kind in KINDS)]
        lines += [f"{head:16} {_cells(kinds)}" for head, kinds in run["heads"].items()]
    lines.append("\n" + message("papers.best_heads"))
    for name, run in result["seeds"].items():
        best = run["best"]
        lines.append(f"  {name}: " + (message("papers.no_crossing_verb") if best is None else
                                      f"{best:14} {_cells(run['heads'][best])}"))
    return lines


def _cells(kinds):
    """The mass and the share of rows with the largest weight there, for each kind of row."""
    return " ".join(f"{'-':>16}" if kinds[kind]["mass"] is None else
                    f"{kinds[kind]['mass']:9.3f} {kinds[kind]['argmax']:6.1%}" for kind in KINDS)


def add_command(sub):
    p = sub.add_parser("head-alignments", help="alignments for the Transformer: the crossing "
                       "verb's weight in each cross-attention head, measured as alignments does")
    p.add_argument("--out", default="runs/head-alignments",
                   help="the folder for the runs, the table and the JSON")
    p.add_argument("--seeds", type=int, default=3, help="Transformers, seeds 0, 1, ..., 2 to 10 "
                   "(their spread is the point; in Python, one will do)")
    p.add_argument("--epochs", type=int, default=8, help="epochs each model trains")
    p.add_argument("--plot", action="store_true", help="also draw head-alignments.png")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier head-alignments run's")
    p.set_defaults(func=lambda a: head_alignments(a.out, a.seeds, a.epochs, a.plot,
                                                  overwrite=a.overwrite) and None)
