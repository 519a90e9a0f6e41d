"""compare-norms: post-norm needs a learning-rate warm-up at depth, pre-norm trains without one.

    python -m seq2seq compare-norms --seeds 0,1,2 --plot

Xiong et al. (2020, "On Layer Normalization in the Transformer Architecture") showed that in the
2017 paper's post-norm Transformer, LayerNorm(x + Sublayer(x)), the gradients of the layers near
the output are large at initialisation, so that a large learning rate from the first update on
throws training off: the warm-up, a rate that rises from near zero over the first updates, is
what makes it train. With the LayerNorm inside the residual, x + Sublayer(LayerNorm(x)) (pre-norm,
nanoGPT's and the project's default), the gradients are of one size at every depth, and it
trains without. Here the Transformer (`--arch transformer`, d_model 64, 4 heads, d_ff 256, --layers
blocks in the encoder and in the decoder) is trained four times per seed, on the same pairs,
split, weights and batches: pre-norm and post-norm (`--norm pre|post`), each with the warm-up
(`--warmup W`: the rate rises to --lr over W updates, then falls as 1/sqrt(update), the 2017
paper's schedule; seq2seq.commands.arch.make_schedule) and without (`--warmup 0`: --lr from the
first update on, constant), for the same number of updates (seq2seq.papers.budget.train_for: the
same work, whatever the machine's load), with Adam (betas 0.9, 0.98) and gradients clipped to 5,
as `train` trains it. Each is then scored as `python -m seq2seq evaluate RUN` scores a run, by the
same code (seq2seq.commands.evaluate.evaluate_run), on the validation pairs the run recorded,
which no model trained on.

While it trains, every --every updates, it records the mean loss of those updates and the mean
norm of the gradient reaching the encoder's first block (before clipping); at the first update,
the norm of every block's gradient, encoder and decoder (Xiong et al.'s Fig. 3: at
initialisation, before any learning rate has acted, so the same with and without warm-up).

Writes OUT/MODEL-SEED/ (run folders, as `train` makes them; MODEL one of MODELS),
compare-norms.json and, with --plot, compare-norms.png (plots.plot_norms).
"""

import math
from pathlib import Path

from minigrad.settings import SettingError, check_number
from seq2seq.commands import runs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.papers.folder import experiment_folder, write_results
from seq2seq.papers.positions import parse_seeds
from seq2seq.papers.table_text import cell, seeds_named, widest

MODELS = ("pre-warmup", "pre-no-warmup", "post-warmup", "post-no-warmup")
# The figure's legend (in English, as the project's figures are); what is printed says the
# message papers.MODEL, in the language of the messages (`label`)
LABELS = {"pre-warmup": "pre-norm, warm-up", "pre-no-warmup": "pre-norm, no warm-up",
          "post-warmup": "post-norm, warm-up", "post-no-warmup": "post-norm, no warm-up"}
TASKS = ("reverse", "copy", "sort")
RESULTS = ("compare-norms.json", "compare-norms.png")
OPTIONS = {"epochs"}            # the epochs begun in --updates updates: recorded, not chosen
MAX_UPDATES = 10 ** 6           # more is a typo
MIN_EXAMPLES = 100


def norms_config(out, norm, warmup, seed, task="reverse", layers=6, lr=1e-2, warmup_updates=50,
                 num_examples=4000, min_len=3, max_len=8):
    """The config of the model with `norm` ("pre" or "post") and, if `warmup`, a warm-up of
    `warmup_updates`, in out/MODEL-SEED: what `train --arch transformer --norm NORM --warmup W
    --layers LAYERS --lr LR` trains with these options."""
    from seq2seq.commands.arch import with_defaults
    name = f"{norm}-{'warmup' if warmup else 'no-warmup'}"
    return with_defaults(TrainConfig(
        task=task, out=str(Path(out) / f"{name}-{seed}"), arch="transformer", norm=norm,
        warmup=warmup_updates if warmup else 0, layers=layers, lr=lr, num_examples=num_examples,
        min_len=min_len, max_len=max_len, seed=seed, progress=False))


def compare_norms(out="runs/compare-norms", task="reverse", seeds=(0, 1, 2), updates=150,
                  every=10, layers=6, lr=1e-2, warmup=50, num_examples=4000, min_len=3,
                  max_len=8, plot=False, overwrite=False, log=say):
    """Train the four models of MODELS for `updates` updates each, per seed, recording their
    loss every `every` updates; score each on its held-out pairs. Returns the result written to
    compare-norms.json."""
    if task not in TASKS:
        raise SettingError("task", message("papers.a_digit_task", tasks=", ".join(TASKS),
                                           task=task))
    seeds = parse_seeds(seeds)
    check_number("updates", updates, integer=True, low=1, high=MAX_UPDATES)
    check_number("every", every, integer=True, low=1, high=MAX_UPDATES)
    if every > updates:
        raise SettingError("every", message("papers.every_above", every=every, updates=updates))
    check_number("warmup", warmup, integer=True, low=1, high=MAX_UPDATES,
                 why=message("papers.why_warmup"))
    if warmup >= updates:
        raise SettingError("warmup", message("papers.warmup_too_long", warmup=warmup,
                                             updates=updates))
    check_settings(layers=layers, lr=lr, num_examples=num_examples, min_len=min_len,
                   max_len=max_len)
    if num_examples < MIN_EXAMPLES:
        raise SettingError("num_examples", message(
            "papers.at_least", least=MIN_EXAMPLES, command="compare-norms", value=num_examples,
            why=message("papers.why_tenth")))
    out = Path(runs.check_out(out))
    configs = {f"{name}-{seed}": norms_config(out, name.split("-")[0], "no-" not in name, seed,
                                              task, layers, lr, warmup, num_examples, min_len,
                                              max_len)
               for seed in seeds for name in MODELS}
    with experiment_folder(out, "compare-norms", configs, RESULTS, overwrite, log,
                           OPTIONS) as place:
        return _compare(place, configs, seeds, updates, every, plot, log)


def _compare(out, configs, seeds, updates, every, plot, log):
    from seq2seq.commands.epoch import TrainingDiverged
    from seq2seq.commands.evaluate import evaluate_run
    from seq2seq.papers.budget import train_for

    first = next(iter(configs.values()))
    result = {"experiment": "compare-norms", "task": first.task, "seeds": list(seeds),
              "layers": first.layers, "lr": first.lr, "warmup": first.warmup,
              "updates": updates, "every": every, "batch_size": first.batch_size,
              "num_examples": first.num_examples, "lengths": [first.min_len, first.max_len],
              "uniform_loss": None, "models": {name: {} for name in MODELS}}
    for key, config in configs.items():
        name = key.rsplit("-", 1)[0]
        log(message("papers.training_norms", label=label(name), seed=config.seed,
                    updates=updates))
        watcher = Watcher(every)
        row = {"diverged": None, "exact_match": None, "bleu": None, "examples": None}
        try:
            translator, facts = train_for(config, None, log, updates, watch=watcher)
        except TrainingDiverged as error:
            log(message("papers.model_failed", label=label(name), seed=config.seed, error=error))
            row["diverged"], facts = str(error), {"cpu_seconds": None}
        else:
            scores = evaluate_run(config.out, warn=log)      # as `evaluate RUN` scores it
            row.update({k: scores[k] for k in ("exact_match", "bleu", "examples")})
            vocab = translator.model.config["tgt_vocab_size"]
            result["uniform_loss"] = math.log(vocab)         # where every model starts
        result["models"][name][str(config.seed)] = {
            **row, "cpu_seconds": facts["cpu_seconds"], **watcher.record()}
    from seq2seq.papers.plots import plot_norms
    figure = (lambda path: plot_norms(result, path, overwrite=True)) if plot else None
    return write_results(out, RESULTS, result, figure, log, table(result))   # claimed above


def label(name):
    """The words for model `name` (one of MODELS) in the text printed: "pre-norm, warm-up"."""
    return message(f"papers.{name}")


def grad_norm(module):
    """The norm of the gradient of all of `module`'s parameters, as backward left it."""
    return math.sqrt(sum(float((p.grad * p.grad).sum()) for p in module.parameters()
                         if p.grad is not None))


class Watcher:
    """run_epoch's `watch`: every `every` updates, the mean loss of those updates and the mean
    norm of the gradient reaching the encoder's first block; at the first update, the norm of
    each block's gradient, the encoder's and the decoder's, first block first."""

    def __init__(self, every):
        self.every, self.done, self.pending = every, 0, []
        self.curve = {"updates_at": [], "loss": [], "first_layer_grad_norm": []}
        self.by_layer = None

    def __call__(self, model, loss):
        if self.by_layer is None:
            self.by_layer = {side: [grad_norm(block) for block in getattr(model, side).layers]
                             for side in ("encoder", "decoder")}
        self.pending.append((loss, grad_norm(model.encoder.layers[0])))
        self.done += 1
        if len(self.pending) == self.every:
            self.curve["updates_at"].append(self.done)
            self.curve["loss"].append(sum(x for x, _ in self.pending) / self.every)
            self.curve["first_layer_grad_norm"].append(
                sum(g for _, g in self.pending) / self.every)
            self.pending = []

    def record(self):
        return {**self.curve, "grad_norm_by_layer": self.by_layer}


def spread(values):
    """(lowest, highest) of the values that are not None, or None if there is none."""
    values = [v for v in values if v is not None]
    return (min(values), max(values)) if values else None


def _range(x, form):
    if x is None:
        return "-"
    return format(x[0], form) if x[0] == x[1] else f"{x[0]:{form}}-{x[1]:{form}}"


def _encoder(row):
    return (row["grad_norm_by_layer"] or {}).get("encoder")


def _at(values, i):
    return values[i] if values else None


def table(result):
    """The result as lines of text: a row per model, each figure lowest to highest over the
    seeds: the mean loss of the first and of the last --every updates, the held-out exact match
    and BLEU, and the norm of the gradient reaching the encoder's first block at the first
    update and over the last --every updates."""
    seeds, every = result["seeds"], result["every"]
    labels = {name: label(name) for name in result["models"]}
    wide = widest(22, labels.values())                  # a longer label in Japanese
    last = message("papers.last", count=every)
    lines = ["\n" + message("papers.norms_head", task=result["task"], layers=result["layers"],
                             lr=result["lr"], warmup=result["warmup"],
                             updates=result["updates"], batch=result["batch_size"],
                             seeds=seeds_named(seeds)),
             message("papers.lowest_to_highest"),
             f"{'':{wide}} {cell(message('papers.mean_loss'), 25, '^')}  "
             f"{cell(message('papers.held_out'), 27, '^')}  "
             f"{cell(message('papers.first_block'), 20, '^')}",
             f"{cell(message('papers.model'), wide)} {f'1-{every}':>12} {cell(last, 12, '>')}  "
             f"{cell(message('papers.exact_match'), 14, '>')} {'BLEU':>12}  "
             f"{cell(message('papers.update_one'), 9, '>')} {cell(last, 10, '>')}"]

    def column(rows, value, form):
        return _range(spread(value(r) for r in rows), form)

    for name, by_seed in result["models"].items():
        rows = list(by_seed.values())
        lines.append(
            f"{cell(labels[name], wide)} {column(rows, lambda r: _at(r['loss'], 0), '.3f'):>12} "
            f"{column(rows, lambda r: _at(r['loss'], -1), '.3f'):>12}  "
            f"{column(rows, lambda r: r['exact_match'], '.1%'):>14} "
            f"{column(rows, lambda r: r['bleu'], '.3f'):>12}  "
            f"{column(rows, lambda r: _at(_encoder(r), 0), '.2f'):>9} "
            f"{column(rows, lambda r: _at(r['first_layer_grad_norm'], -1), '.3f'):>10}")
        lines += [f"{'':{wide}} {seeds_named([r])}: {row['diverged']}"
                  for r, row in by_seed.items() if row["diverged"]]
    if result["uniform_loss"] is not None:
        lines.append(message("papers.uniform_guess", loss=result["uniform_loss"]))
    return lines


def add_command(sub):
    p = sub.add_parser("compare-norms", help="Xiong et al. 2020: pre-norm and post-norm, each "
                       "with and without a learning-rate warm-up, at depth")
    p.add_argument("--out", default="runs/compare-norms",
                   help="the folder for the runs, the table and the JSON")
    p.add_argument("--task", default="reverse",
                   help=f"the digit task every model learns: {', '.join(TASKS)}")
    p.add_argument("--seeds", dest="seed_list", default="0,1,2",
                   help="seeds, comma-separated: each seeds the data and the weights of one "
                   "model of each kind")
    p.add_argument("--updates", type=int, default=150, help="updates of training per model")
    p.add_argument("--every", type=int, default=10, help="a point of the loss curve every this "
                   "many updates (the mean loss of those updates)")
    p.add_argument("--layers", type=int, default=6, help="blocks in the encoder and in the "
                   "decoder")
    p.add_argument("--lr", type=float, default=1e-2, help="the learning rate: constant without "
                   "warm-up, the peak with it")
    p.add_argument("--warmup", type=int, default=50, help="updates of warm-up of the models that "
                   "have one")
    p.add_argument("--num-examples", type=int, default=4000, help="pairs generated per seed")
    p.add_argument("--min-len", type=int, default=3, help="the shortest source, in digits")
    p.add_argument("--max-len", type=int, default=8, help="the longest source, in digits")
    p.add_argument("--plot", action="store_true", help="also draw compare-norms.png")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier compare-norms run's")
    p.set_defaults(func=lambda a: compare_norms(
        a.out, a.task, a.seed_list, a.updates, a.every, a.layers, a.lr, a.warmup,
        a.num_examples, a.min_len, a.max_len, a.plot, a.overwrite) and None)
