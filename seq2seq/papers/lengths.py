"""compare-lengths: Bahdanau, Cho and Bengio (2015), Fig. 2, on a CPU.

    python -m seq2seq compare-lengths --max-len 12 --test-max-len 18

The paper trains an encoder-decoder without attention (RNNenc) and one with it (RNNsearch) on
sentences of up to 30 or 50 words and plots BLEU against the length of the test sentences, up to
60 words: RNNenc falls as sentences grow, RNNsearch holds up. Here the two models
(seq2seq.models: the plain Decoder and the AttentionDecoder) train with the same budget on the
same sentences of a built-in task, with source lengths up to --max-len; both are scored on
held-out sentences up to --test-max-len, longer than any they trained on when it is above
--max-len. For each source length: exact match and BLEU (metrics.bleu_by_length), on the run's
own tokens.

Writes OUT/plain/ and OUT/attention/ (the two runs), compare-lengths.json (the scores and how
many sentences each is over) and compare-lengths.png (plots.plot_lengths).
"""

from pathlib import Path

from minigrad.settings import SettingError
from seq2seq import metrics
from seq2seq.commands import runs
from seq2seq.commands.demo import held_out_pairs, held_out_words
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.data import tasks
from seq2seq.data.vocab import tokenize
from seq2seq.papers.folder import experiment_folder, trained, write_results
from seq2seq.papers.table_text import cell

LENGTH_MODELS = {"plain": None, "attention": "dot"}      # subfolder: attention scoring
RESULTS = ("compare-lengths.json", "compare-lengths.png")
# Options of the command line, which an earlier run in the folder may have set otherwise
OPTIONS = {"task", "hidden_size", "min_len", "max_len"}
# The fewest pairs worth comparing on: a tenth is held out for validation, and a model trained on
# a few dozen pairs has seen too few sources of each length for a score by length to mean much.
MIN_EXAMPLES = 100


def lengths_config(out, name, task="toy-ja-en", epochs=8, num_examples=12000, hidden_size=128,
                   seed=0, min_len=None, max_len=None):
    """The config of compare-lengths' model `name` ("plain" or "attention"), in out/name."""
    return TrainConfig(task=task, out=str(Path(out) / name), attention=LENGTH_MODELS[name],
                       embed_size=32, hidden_size=hidden_size, batch_size=64, epochs=epochs,
                       num_examples=num_examples, lr=5e-3, lr_decay=0.8, reverse_input=True,
                       seed=seed, min_len=min_len, max_len=max_len)


def compare_lengths(out="runs/compare-lengths", task="toy-ja-en", epochs=8, num_examples=12000,
                    hidden_size=128, seed=0, log=say, n_held_out=3000, overwrite=False,
                    min_len=None, max_len=None, test_max_len=None):
    """Train the plain and the attention model alike on sources of min_len..max_len tokens (the
    task's own range by default); score both, by source length, on n_held_out sentences of
    min_len..test_max_len tokens (default: max_len) that neither trained on. Returns the
    result written to compare-lengths.json."""
    if task not in tasks.TASKS:          # before any training: the held-out pairs are generated
        raise SettingError("task", message("papers.built_in_task", tasks=", ".join(tasks.TASKS),
                                           command="compare-lengths", task=task))
    check_settings(min_len=min_len, max_len=max_len, test_max_len=test_max_len,
                   num_examples=num_examples)
    if num_examples < MIN_EXAMPLES:
        raise SettingError("num_examples", message(
            "papers.at_least", least=MIN_EXAMPLES, command="compare-lengths", value=num_examples,
            why=message("papers.why_length")))
    low, high = (tasks.DEFAULT_LENGTHS[task][0] if min_len is None else min_len,
                 tasks.DEFAULT_LENGTHS[task][1] if max_len is None else max_len)
    tested = high if test_max_len is None else test_max_len
    if tested < high:
        raise SettingError("test_max_len", message("papers.test_below", tested=tested,
                                                   high=high))
    if low > high:
        raise SettingError("min_len", message("papers.min_above", low=low, high=high))
    out = Path(runs.check_out(out))
    configs = {name: lengths_config(out, name, task, epochs, num_examples, hidden_size, seed,
                                    min_len, max_len) for name in LENGTH_MODELS}
    with experiment_folder(out, "compare-lengths", configs, RESULTS, overwrite, log,
                           OPTIONS) as place:
        return _compare_lengths(place, configs, seed, log, n_held_out, (low, high), tested)


def _compare_lengths(out, configs, seed, log, n_held_out, lengths, tested):
    from seq2seq.papers.plots import plot_lengths

    result = {"experiment": "compare-lengths", "task": configs["plain"].task,
              "trained_lengths": list(lengths), "tested_lengths": [lengths[0], tested]}
    for name, config, translator, _ in trained(configs, log, "papers.training_model"):
        held_out, dropped = held_out_pairs(config, n_held_out, seed + 1, max_len=tested)
        log(held_out_words(len(held_out), dropped))
        result[name] = scores_by_length(translator, held_out)       # alike for both
    return write_results(out, RESULTS, result, lambda path: plot_lengths(
        result, path, overwrite=True), log, table(result))          # overwrite: claimed above


def scores_by_length(translator, pairs):
    """{"exact_match": {length: fraction}, "bleu": {length: BLEU or None}, "sentences":
    {length: count}} over (source, reference) pairs, grouped by source length in tokens; the
    keys are strings, as JSON writes them."""
    sources = [tokenize(s, translator.level) for s, _ in pairs]
    references = [r for _, r in pairs]
    hypotheses = [t.text for t in translator.translate([s for s, _ in pairs])]
    bleu = metrics.bleu_by_length(sources, hypotheses, references,
                                  metrics.bleu_tokens(translator.level))
    exact = metrics.accuracy_by_length(sources, hypotheses, references)
    counts = {n: sum(len(s) == n for s in sources) for n in exact}
    return {key: {str(n): value for n, value in scores.items()}
            for key, scores in (("exact_match", exact), ("bleu", bleu), ("sentences", counts))}


def table(result):
    """The result as lines of text: one per source length, a rule where the lengths no model
    trained on begin."""
    longest = result["trained_lengths"][1]
    head = (f"{cell(message('papers.source_length'), 13, '>')}  "
            f"{cell(message('papers.sentences'), 9, '>')}  "
            f"{cell(message('papers.exact_match'), 19, '^')}  {'BLEU':^15}")
    lines = ["\n" + head.rstrip(),
             f"{'':13}  {'':9}  {'plain':>9} {'attention':>9}  {'plain':>7} {'attention':>7}"]
    lengths = sorted({int(n) for name in LENGTH_MODELS for n in result[name]["exact_match"]})
    for n in lengths:
        if n == longest + 1:
            lines.append(cell(message("papers.longer_rule"), 60, ">"))
        exact = [result[name]["exact_match"].get(str(n)) for name in LENGTH_MODELS]
        bleu = [result[name]["bleu"].get(str(n)) for name in LENGTH_MODELS]
        lines.append(f"{n:13d}  {result['attention']['sentences'].get(str(n), 0):9d}  "
                     + " ".join(f"{_percent(x):>9}" for x in exact) + "  "
                     + " ".join(f"{_number(x):>7}" for x in bleu))
    return lines


def _percent(x):
    return "-" if x is None else f"{x:.1%}"


def _number(x):
    return "-" if x is None else f"{x:.3f}"


def add_command(sub):
    p = sub.add_parser("compare-lengths", help="Bahdanau et al. 2015, Fig. 2: exact match and "
                       "BLEU by input length, plain vs attention")
    p.add_argument("--out", default="runs/compare-lengths",
                   help="the folder for the table, the figure and the JSON")
    p.add_argument("--task", default="toy-ja-en", help="the built-in task both models learn")
    p.add_argument("--epochs", type=int, default=8, help="training epochs of each model")
    p.add_argument("--num-examples", type=int, default=12000, help="pairs generated for the task")
    p.add_argument("--hidden-size", type=int, default=128, help="the LSTMs' state size")
    p.add_argument("--min-len", type=int, default=None,
                   help="the shortest source, trained and tested (default: the task's own)")
    p.add_argument("--max-len", type=int, default=None,
                   help="the longest training source (default: the task's own)")
    p.add_argument("--test-max-len", type=int, default=None, help="the longest held-out source "
                   "scored; above --max-len, lengths no model trained on (default: --max-len)")
    p.add_argument("--seed", type=int, default=0, help="seeds the data and the weights")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier compare-lengths run's")
    p.set_defaults(func=lambda a: compare_lengths(
        a.out, a.task, a.epochs, a.num_examples, a.hidden_size, a.seed, overwrite=a.overwrite,
        min_len=a.min_len, max_len=a.max_len, test_max_len=a.test_max_len) and None)
