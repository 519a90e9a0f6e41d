"""compare-positions: sinusoidal against learned positions, on sequences longer than any trained on.

    python -m seq2seq compare-positions --seeds 0,1,2 --plot

Vaswani et al. (2017, section 3.5) chose sinusoids, which go on past any length, "because it may
allow the model to extrapolate to sequence lengths longer than the ones encountered during
training"; Press, Smith and Lewis (2022, ALiBi) measured that they barely do. Here the
Transformer (`--arch transformer`, its defaults: d_model 64, 4 heads, 2 layers, pre-norm, lr
0.001 after 200 warm-up updates) is trained twice per seed, on the same pairs, split and seed,
once with each kind of positions (attention.positions), on a digit task of sources of --min-len
to --max-len digits (N). Both are scored as `python -m seq2seq evaluate RUN` scores a run, by the
same code (seq2seq.commands.evaluate.evaluate_run): on the validation pairs the run recorded,
by source length, and on new sequences of each length N + 1 ... --test-max-len, as
`evaluate RUN --task TASK --min-len n --max-len n` scores them. For those it also measures how
long the outputs are, translating the same sequences again: it shows what each model does where
it has no trained position.

The learned table has a row for every position the test reaches, as `train` builds it
(seq2seq.commands.arch.transformer_settings: 2 x the longest training sequence + 10 rows), but
only the rows of the positions trained on, 0 ... N - 1 in the encoder and 0 ... N in the decoder
(<bos> and N digits), ever get a gradient: the rows past them keep their random initial values.

Writes OUT/sinusoidal-SEED/ and OUT/learned-SEED/ (run folders, as `train` makes them),
compare-positions.json and, with --plot, compare-positions.png (plots.plot_positions).
"""

from pathlib import Path

from minigrad.settings import SettingError, check_number
from seq2seq.commands import runs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.data import tasks
from seq2seq.papers.folder import experiment_folder, trained, write_results
from seq2seq.papers.table_text import cell, seeds_named

KINDS = ("sinusoidal", "learned")
TASKS = ("reverse", "copy", "sort")         # digit tasks: the target as long as the source
RESULTS = ("compare-positions.json", "compare-positions.png")
OPTIONS = {"task", "min_len", "max_len"}    # may differ from an earlier run in the folder
SEED = 12345                                # evaluate's: the new sequences, the same for all
MIN_EXAMPLES = 100


def positions_config(out, kind, seed, task="reverse", epochs=8, num_examples=6000, min_len=3,
                     max_len=8):
    """The config of the model with positions `kind` and `seed`, in out/KIND-SEED: what
    `train --arch transformer --positions KIND` trains with these options."""
    from seq2seq.commands.arch import with_defaults
    return with_defaults(TrainConfig(
        task=task, out=str(Path(out) / f"{kind}-{seed}"), arch="transformer", positions=kind,
        epochs=epochs, num_examples=num_examples, lr=1e-3, min_len=min_len, max_len=max_len,
        seed=seed, progress=False))             # as the run records it


def parse_seeds(text):
    """"0,1,2" (or a sequence of integers) -> (0, 1, 2): one to ten seeds, none repeated."""
    items = text.split(",") if isinstance(text, str) else list(text)
    seeds = []
    for item in items:
        try:
            seed = int(item.strip()) if isinstance(item, str) else item
        except ValueError:
            raise SettingError("seeds", message("papers.seeds_numbers", text=text)) from None
        seeds.append(check_number("seeds", seed, low=0, integer=True))
    if not 1 <= len(seeds) <= 10 or len(set(seeds)) < len(seeds):
        raise SettingError("seeds", message("papers.seeds_count", text=text))
    return tuple(seeds)


def compare_positions(out="runs/compare-positions", task="reverse", seeds=(0, 1, 2), epochs=8,
                      num_examples=6000, min_len=3, max_len=8, test_max_len=None, plot=False,
                      overwrite=False, log=say, n_longer=300):
    """Train the Transformer with each kind of positions and each seed alike on sources of
    min_len ... max_len digits; score each on its held-out pairs and on `n_longer` new sequences
    of each length max_len + 1 ... test_max_len (default max_len + 4). Returns the result
    written to compare-positions.json."""
    if task not in TASKS:
        raise SettingError("task", message("papers.digit_task", tasks=", ".join(TASKS),
                                           task=task))
    seeds = parse_seeds(seeds)
    check_settings(epochs=epochs, num_examples=num_examples, min_len=min_len, max_len=max_len,
                   test_max_len=test_max_len)
    check_number("longer_examples", n_longer, low=1, high=100_000, integer=True)
    if num_examples < MIN_EXAMPLES:     # and then the longest source is max_len, as assumed below
        raise SettingError("num_examples", message(
            "papers.at_least", least=MIN_EXAMPLES, command="compare-positions",
            value=num_examples, why=message("papers.why_learns")))
    test_max_len = max_len + 4 if test_max_len is None else test_max_len
    if test_max_len <= max_len:
        raise SettingError("test_max_len", message("papers.test_not_above", tested=test_max_len,
                                                   high=max_len))
    rows = 2 * (max_len + 2) + 10       # the learned table: arch.transformer_settings
    if test_max_len + 1 > rows:         # the decoder's <bos>, then test_max_len digits
        raise SettingError("test_max_len", message("papers.table_too_short", tested=test_max_len,
                                                   rows=rows, last=rows - 1))
    out = Path(runs.check_out(out))
    configs = {f"{kind}-{seed}": positions_config(out, kind, seed, task, epochs, num_examples,
                                                  min_len, max_len)
               for seed in seeds for kind in KINDS}
    with experiment_folder(out, "compare-positions", configs, RESULTS, overwrite, log,
                           OPTIONS) as place:
        return _compare(place, configs, seeds, test_max_len, plot, log, n_longer)


def _compare(out, configs, seeds, test_max_len, plot, log, n_longer):
    first = next(iter(configs.values()))
    low, high = first.min_len, first.max_len
    result = {"experiment": "compare-positions", "task": first.task, "seeds": list(seeds),
              "epochs": first.epochs, "num_examples": first.num_examples,
              "trained_lengths": [low, high], "tested_lengths": [high + 1, test_max_len],
              **{kind: {} for kind in KINDS}}
    for name, config, translator, seconds in trained(configs, log):
        log(message("papers.scoring_longer", name=name, count=n_longer, low=high + 1,
                    high=test_max_len))
        result[config.positions][str(config.seed)] = {
            "cpu_seconds": seconds, **scores(config, translator, test_max_len, n_longer, log)}
    from seq2seq.papers.plots import plot_positions
    figure = (lambda path: plot_positions(result, path, overwrite=True)) if plot else None
    return write_results(out, RESULTS, result, figure, log, table(result))   # claimed above


def scores(config, translator, test_max_len, n_longer, log):
    """One model's scores, as `evaluate` gives them: {"held_out_exact_match", "exact_match":
    {length: fraction}, "sentences": {length: count}, "token_accuracy" and "output_length":
    {length: mean} for the lengths longer than any trained on}, keys as JSON writes them."""
    from seq2seq.commands.evaluate import evaluate_run
    from seq2seq.data import heldout
    from seq2seq.data.vocab import tokenize
    from seq2seq.translator import load_translator

    def said_above(line):               # evaluate's note on the lengths: said once, above
        pass

    held = evaluate_run(config.out, warn=log)
    record = heldout.read_record(load_translator(config.out)[1], config.out)
    counts = {}
    for source, _ in record["val_pairs"]:
        counts[str(len(source))] = counts.get(str(len(source)), 0) + 1
    row = {"model_max_len": translator.model.max_len,       # positions it has (learned: rows)
           "held_out_exact_match": held["exact_match"],
           "exact_match": {str(n): v for n, v in sorted(held["by_length"].items())},
           "sentences": dict(sorted(counts.items(), key=lambda item: int(item[0]))),
           "token_accuracy": {}, "output_length": {}}
    for n in range(config.max_len + 1, test_max_len + 1):
        longer = evaluate_run(config.out, task=config.task, num_examples=n_longer, seed=SEED,
                              min_len=n, max_len=n, warn=log, lengths_note=said_above)
        assert longer["dropped_as_seen"] == 0       # no training source is this long
        pairs = tasks.make_task(config.task, n_longer, seed=SEED, min_len=n, max_len=n)
        written = [len(tokenize(t.text, translator.level))
                   for t in translator.translate([s for s, _ in pairs])]   # the same, again
        row["exact_match"][str(n)] = longer["exact_match"]
        row["token_accuracy"][str(n)] = longer["token_accuracy"]
        row["output_length"][str(n)] = sum(written) / len(written)
        row["sentences"][str(n)] = longer["examples"]
    return row


def spread(result, kind, key, length):
    """(lowest, mean, highest) of `key` at `length` over the seeds of `kind`; None if absent."""
    values = [run[key][length] for run in result[kind].values() if length in run[key]]
    return (min(values), sum(values) / len(values), max(values)) if values else None


def table(result):
    """The result as lines of text: a row per source length, each kind's lowest to highest
    exact match over the seeds and, past the trained lengths, its mean output length."""
    seeds, (low, high) = result["seeds"], result["trained_lengths"]
    epochs = message("progress.epochs_many" if result["epochs"] > 1 else "progress.epochs_one",
                     count=result["epochs"])
    lines = ["\n" + message("papers.positions_head", task=result["task"], low=low, high=high,
                             epochs=epochs, pairs=result["num_examples"],
                             seeds=seeds_named(seeds)),
             message("papers.positions_note"),
             (f"{cell(message('papers.length'), 6, '>')} "
              f"{cell(message('papers.sentences'), 9, '>')}  "
              f"{cell(message('papers.exact_match'), 29, '^')}  "
              f"{cell(message('papers.output_length'), 19, '^')}").rstrip(),
             f"{'':16}  {'sinusoidal':>14} {'learned':>14}  {'sinusoidal':>9} {'learned':>9}"]
    lengths = sorted({int(n) for run in result["learned"].values() for n in run["exact_match"]})
    for n in lengths:
        if n == high + 1:
            lines.append(cell(message("papers.longer_rule"), 55, ">"))
        counts = [run["sentences"].get(str(n), 0) for run in result["learned"].values()]
        shown = f"{min(counts)}" if min(counts) == max(counts) else f"{min(counts)}-{max(counts)}"
        exact = [spread(result, kind, "exact_match", str(n)) for kind in KINDS]
        written = [spread(result, kind, "output_length", str(n)) for kind in KINDS]
        lines.append(f"{n:6d} {shown:>9}  " + " ".join(f"{_range(x):>14}" for x in exact)
                     + ("" if n <= high else "  " + " ".join(
                         f"{x[1]:9.2f}" for x in written)))
    return lines


def _range(x):
    if x is None:
        return "-"
    return f"{x[0]:.1%}" if x[0] == x[2] else f"{x[0]:.1%}-{x[2]:.1%}"


def add_command(sub):
    p = sub.add_parser("compare-positions", help="Vaswani et al. 2017, Press et al. 2022: "
                       "sinusoidal and learned positions on sequences longer than trained on")
    p.add_argument("--out", default="runs/compare-positions",
                   help="the folder for the runs, the table and the JSON")
    p.add_argument("--task", default="reverse",
                   help=f"the digit task every model learns: {', '.join(TASKS)}")
    p.add_argument("--seeds", dest="seed_list", default="0,1,2",
                   help="seeds, comma-separated: each seeds the data and the weights of one "
                   "model of each kind")
    p.add_argument("--epochs", type=int, default=8, help="training epochs of each model")
    p.add_argument("--num-examples", type=int, default=6000, help="pairs generated per seed")
    p.add_argument("--min-len", type=int, default=3, help="the shortest source, in digits")
    p.add_argument("--max-len", type=int, default=8, help="the longest training source")
    p.add_argument("--test-max-len", type=int, default=None, help="the longest new source "
                   "scored; each length above --max-len is tested (default: --max-len + 4)")
    p.add_argument("--longer-examples", type=int, default=300, help="new sequences scored "
                   "at each length above --max-len")
    p.add_argument("--plot", action="store_true", help="also draw compare-positions.png")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier compare-positions run's")
    p.set_defaults(func=lambda a: compare_positions(
        a.out, a.task, a.seed_list, a.epochs, a.num_examples, a.min_len, a.max_len,
        a.test_max_len, a.plot, a.overwrite, n_longer=a.longer_examples) and None)
