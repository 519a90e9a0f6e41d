"""compare-architectures: the LSTM with attention against the Transformer, on the same CPU time.

    python -m seq2seq compare-architectures --budget 90 --plot

Vaswani et al. (2017) made the case for the Transformer partly on cost: its layers run every
position at once where a recurrent layer runs them one after another. Here each model is given
the same budget of CPU time on the same task, data and split (seq2seq.papers.budget.train_for:
process time, one BLAS thread, stopped at the end of the batch during which the budget runs out;
or, with --updates N, the same number of updates: the same work rather than the same time, and
figures that do not move with the machine's speed or load), and both are then scored as
`python -m seq2seq evaluate RUN` scores a run, by the same code
(seq2seq.commands.evaluate.evaluate_run), on the validation pairs the run recorded, which no model
trained on and which are the same for both. Each model has the settings `python -m seq2seq train`
gives it when only --task and --arch are written: the LSTM with dot attention (Luong wiring,
embedding 16, hidden size 256, Adam at lr 0.001), the Transformer with its defaults
(seq2seq.commands.arch: d_model 64, 4 heads, 2 layers, d_ff 256, pre-norm, sinusoidal
positions, lr 0.001 reached after 200 warm-up updates); batches of 128, gradients clipped to 5,
20,000 pairs of which a tenth of the sources are held out.

On toy-ja-en it also scores exact match by source length: the held-out sentences (3 to 25 words,
the lengths trained on) and, as `evaluate RUN --task toy-ja-en --min-len 26 --max-len 30` does,
new sentences of 26 to 30 words, longer than any trained on.

Writes OUT/TASK-lstm/ and OUT/TASK-transformer/ (run folders, as `train` makes them),
compare-architectures.json and, with --plot, compare-architectures.png (plots.plot_architectures).
"""

import math
from pathlib import Path

from minigrad.files import missing_file
from minigrad.settings import SettingError, check_number
from seq2seq.commands import runs
from seq2seq.commands.arch import TRAINING_DEFAULTS
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.data import tasks
from seq2seq.data.vocab import tokenize
from seq2seq.papers.folder import experiment_folder, write_results
from seq2seq.papers.table_text import cell, widest

ARCHS = ("lstm", "transformer")
DEFAULT_TASKS = ("reverse", "copy", "toy-ja-en")
RESULTS = ("compare-architectures.json", "compare-architectures.png")
OPTIONS = {"epochs"}            # as many as the budget allowed: may differ from run to run
MAX_BUDGET = 24 * 3600          # a day per model per task: more is a typo
MAX_UPDATES = 10 ** 6           # as many updates: more is a typo
LONGER = (26, 30)               # toy-ja-en: lengths beyond the task's 3 to 25 words


def architecture_config(out, task, name, seed=0, num_examples=20000, dates_file=None):
    """The config of model `name` ("lstm" or "transformer") on `task`, in out/TASK-NAME: what
    `train --task TASK --arch NAME` trains (the dates task from `dates_file`, a pairs file of
    the book's dates, "_" between source and target)."""
    from seq2seq.commands.arch import with_defaults
    where = (dict(task=task, num_examples=num_examples) if task != "dates"   # a file: read whole
             else dict(task=str(dates_file), sep="_"))
    return with_defaults(TrainConfig(**where, out=str(Path(out) / f"{task}-{name}"), arch=name,
                       lr=TRAINING_DEFAULTS[name]["lr"], seed=seed,
                       progress=False))       # as the run records it


def settings(config):
    """What a model trained with, besides the task: the options its `train` command line takes."""
    from seq2seq.commands.arch import LSTM_ONLY, TRANSFORMER_DEFAULTS, with_defaults
    config = with_defaults(config)
    own = TRANSFORMER_DEFAULTS if config.arch == "transformer" else LSTM_ONLY
    shared = ("batch_size", "lr", "lr_decay", "clip", "num_examples", "val_fraction", "seed")
    return {name: getattr(config, name) for name in (*own, *shared)}


def parse_tasks(text):
    """"reverse,copy" (or a sequence of names) -> ("reverse", "copy"); an unknown or repeated
    name refused."""
    names = tuple(name.strip() for name in (text.split(",") if isinstance(text, str) else text))
    for name in names:
        if name not in tasks.TASKS:
            raise SettingError("tasks", message("papers.not_a_task", name=name,
                                                tasks=", ".join(tasks.TASKS)))
    if len(set(names)) < len(names):
        raise SettingError("tasks", message("papers.task_twice", text=text))
    return names


def compare_architectures(out="runs/compare-architectures", task_names=DEFAULT_TASKS,
                          budget=60.0, seed=0, num_examples=20000, dates_file=None,
                          plot=False, overwrite=False, log=say, n_longer=1000, updates=None):
    """Train both models on each task for `budget` CPU seconds each (or `updates` updates each,
    when that is given: then `budget` is None), score them on the held-out pairs; returns the
    result written to compare-architectures.json."""
    task_names = parse_tasks(task_names)
    if updates is None:
        check_number("budget", budget, low=0, low_open=True, high=MAX_BUDGET,
                     why=message("papers.why_budget"))
    else:
        if budget is not None:
            raise SettingError("updates", message("papers.two_budgets"))
        check_number("updates", updates, integer=True, low=1, high=MAX_UPDATES,
                     why=message("papers.why_updates"))
    check_settings(seed=seed, num_examples=num_examples)
    check_number("num_examples", num_examples, integer=True, low=10,
                 why=message("papers.why_sources"))
    if "dates" in task_names and (dates_file is None or missing_file(dates_file)):
        log(message("papers.skipping_dates", why=(
            message("papers.no_dates_file") if dates_file is None else
            f"--dates-file {dates_file}: {missing_file(dates_file, message('what.file'))}")))
        task_names = tuple(name for name in task_names if name != "dates")
    if not task_names:
        raise SettingError("tasks", message("papers.no_task_left"))
    out = Path(runs.check_out(out))
    configs = {f"{task}-{name}": architecture_config(out, task, name, seed, num_examples,
                                                     dates_file)
               for task in task_names for name in ARCHS}
    with experiment_folder(out, "compare-architectures", configs, RESULTS, overwrite, log,
                           OPTIONS) as place:
        return _compare(place, task_names, configs, (budget, updates), seed, plot, log, n_longer)


def _compare(out, task_names, configs, budgets, seed, plot, log, n_longer):
    from seq2seq.commands.evaluate import evaluate_run
    from seq2seq.papers.budget import train_for

    budget, updates = budgets
    result = {"experiment": "compare-architectures", "budget": budget, "updates": updates,
              "seed": seed, "tasks": {}}
    for task in task_names:
        rows = result["tasks"][task] = {}
        for name in ARCHS:
            config = configs[f"{task}-{name}"]
            log(message("papers.training_for", name=name, task=task, spent=spent(result)))
            translator, facts = train_for(config, budget, log, updates)
            scores = evaluate_run(config.out, warn=log)         # as `evaluate RUN` scores it
            rows[name] = {
                "settings": settings(config),
                "parameters": sum(p.data.size for p in translator.model.parameters()),
                **facts,
                "cpu_seconds_per_epoch": facts["cpu_seconds"] / facts["epochs"],
                **{key: scores[key] for key in ("exact_match", "bleu", "bleu_tokens",
                                                "examples", "seen_in_training")},
                "by_length": {str(n): v for n, v in sorted(scores["by_length"].items())}}
            if task == "toy-ja-en":
                rows[name]["by_length"].update(_longer(evaluate_run, config.out, n_longer, log))
                rows[name]["sentences"] = _counts(config.out, n_longer)
    from seq2seq.papers.plots import plot_architectures
    figure = (lambda path: plot_architectures(result, path, overwrite=True)) if plot else None
    return write_results(out, RESULTS, result, figure, log, table(result))   # claimed above


def _longer(evaluate_run, run, n, log):
    """Exact match by source length on new toy-ja-en sentences of LONGER words, scored as
    `evaluate RUN --task toy-ja-en --min-len 26 --max-len 30` scores them."""
    scores = evaluate_run(run, task="toy-ja-en", num_examples=n, min_len=LONGER[0],
                          max_len=LONGER[1], warn=log)
    return {str(k): v for k, v in sorted(scores["by_length"].items())}


def _counts(run, n):
    """How many sentences each exact match by length is over: the run's held-out ones, then the
    longer ones (the same for both models: the same split, the same generated pairs)."""
    from seq2seq.data import heldout
    from seq2seq.translator import load_translator

    record = heldout.read_record(load_translator(run)[1], run)
    longer, _ = heldout.drop_seen(tasks.make_task("toy-ja-en", n, seed=12345, min_len=LONGER[0],
                                                  max_len=LONGER[1]), record)
    counts = {}
    for source, _ in [*record["val_pairs"], *longer]:
        length = str(len(tokenize(source, "word")))
        counts[length] = counts.get(length, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: int(item[0])))


def spent(result):
    """What each model was given: "60 s of CPU time" or "200 updates"."""
    if result.get("updates") is not None:
        return message("papers.spent_updates", updates=result["updates"])
    return message("papers.spent_seconds", seconds=result["budget"])


def table(result):
    """The result as lines of text: a row per task and model, then toy-ja-en by length."""
    words = [message(f"papers.{key}") for key in HEADINGS]
    w = [widest(width, [word]) for width, word in zip(WIDTHS, words)]   # a longer Japanese word
    lines = ["\n" + message("papers.same_budget", spent=spent(result)),
             " ".join(cell(word, width, "<" if i < 2 else ">")
                      for i, (word, width) in enumerate(zip(words, w))) + f" {'BLEU':>6}"]
    for task, rows in result["tasks"].items():
        for name, row in rows.items():
            lines.append(f"{task:{w[0]}} {name:{w[1]}} {row['parameters']:{w[2]},d} "
                         f"{row['updates']:{w[3]}d} {row['cpu_seconds']:{w[4]}.1f} "
                         f"{row['epochs']:{w[5]}.2f} {row['cpu_seconds_per_epoch']:{w[6]}.1f} "
                         f"{row['examples']:{w[7]}d} {row['exact_match']:{w[8]}.1%} "
                         f"{row['bleu']:6.3f}")
    rows = result["tasks"].get("toy-ja-en")
    if rows:
        lines += ["", message("papers.toy_by_length"),
                  f"{cell(message('papers.length'), 6, '>')} "
                  f"{cell(message('papers.sentences'), 9, '>')} "
                  + " ".join(f"{n:>11}" for n in rows)]
        counts = rows[ARCHS[0]]["sentences"]
        for length in counts:
            if int(length) == LONGER[0]:
                lines.append(cell(message("papers.longer_rule"), 48, ">"))
            lines.append(f"{length:>6} {counts[length]:9d} " + " ".join(
                f"{_percent(row['by_length'].get(length)):>11}" for row in rows.values()))
    return lines


# The table's columns before BLEU: their headings (messages papers.KEY) and widths in English
HEADINGS = ("task", "model", "parameters", "updates", "cpu_seconds", "epochs", "cpu_per_epoch",
            "held_out", "exact_match")
WIDTHS = (10, 12, 10, 7, 6, 6, 11, 8, 11)


def _percent(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"


def add_command(sub):
    p = sub.add_parser("compare-architectures", help="the LSTM with attention and the "
                       "Transformer on the same CPU-time budget: accuracy, updates, time")
    p.add_argument("--out", default="runs/compare-architectures",
                   help="the folder for the runs, the table and the JSON")
    p.add_argument("--tasks", default=",".join(DEFAULT_TASKS),
                   help="built-in tasks, comma-separated (default: %(default)s); dates only "
                   "with --dates-file")
    p.add_argument("--budget", type=float, default=None,
                   help="CPU seconds of training per model per task (default: 60)")
    p.add_argument("--updates", type=int, default=None,
                   help="instead of --budget: updates of training per model per task (the same "
                   "work, not the same time; figures that do not depend on the machine)")
    p.add_argument("--dates-file", help="the dates pairs of 'Deep Learning from Scratch 2' "
                   "(source_target per line), for --tasks dates")
    p.add_argument("--num-examples", type=int, default=20000, help="pairs generated for a task")
    p.add_argument("--seed", type=int, default=0, help="seeds the data and the weights")
    p.add_argument("--plot", action="store_true", help="also draw compare-architectures.png")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier compare-architectures run's")
    p.set_defaults(func=lambda a: compare_architectures(
        a.out, a.tasks, 60.0 if a.budget is None and a.updates is None else a.budget, a.seed,
        a.num_examples, a.dates_file, a.plot, a.overwrite, updates=a.updates) and None)
