"""compare-scoring: Luong, Pham and Manning (2015), the score functions side by side.

    python -m seq2seq compare-scoring --out runs/compare-scoring

Luong et al. compare ways to score a decoder state h_t against an encoder state h̄_s:

    dot        h_t · h̄_s                    no parameters
    general    h_t · (W h̄_s)                W: H x H              (attention.GeneralAttention)
    concat     v · tanh(W [h_t; h̄_s])       W: H x 2H, v: H       (the additive score of Bahdanau
                                                                   et al.: AdditiveAttention)

and find, for their global attention, dot and general about as good and concat worse. Here the
same model (seq2seq.models.rnn.AttentionDecoder, the Luong wiring) is trained with each score, with
the same data, budget and seeds, and scored on held-out sentences: exact match, BLEU, and the
CPU time of an epoch (process time, so that other programs on the machine do not count; one BLAS
thread). The additive score builds a (B, T, S, H) tensor of tanh features where the others make
one (B, T, S) matrix of dot products: it costs the most.

Writes OUT/dot-0/, OUT/general-0/, ... (a run per score and seed), compare-scoring.json and
compare-scoring.png (plots.plot_scoring).
"""

from pathlib import Path

from minigrad.settings import SettingError, check_number
from seq2seq import metrics
from seq2seq.commands import runs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.data import tasks
from seq2seq.papers.folder import experiment_folder, trained, write_results
from seq2seq.papers.table_text import cell

SCORES = ("dot", "general", "additive")
RESULTS = ("compare-scoring.json", "compare-scoring.png")
OPTIONS = {"task", "hidden_size", "max_len"}


def scoring_config(out, score, seed, task="toy-ja-en", epochs=5, num_examples=4000,
                   hidden_size=64, max_len=None):
    """The config of the model with `score` and `seed`, in out/SCORE-SEED."""
    return TrainConfig(task=task, out=str(Path(out) / f"{score}-{seed}"), attention=score,
                       embed_size=32, hidden_size=hidden_size, batch_size=64, epochs=epochs,
                       num_examples=num_examples, lr=1e-2, lr_decay=0.7, max_len=max_len,
                       val_fraction=0.0, seed=seed, progress=False)


def compare_scoring(out="runs/compare-scoring", task="toy-ja-en", seeds=2, epochs=5,
                    num_examples=4000, hidden_size=64, max_len=None, log=say,
                    n_held_out=1000, overwrite=False):
    """Train the model with each score and each of `seeds` seeds alike; score each on held-out
    sentences. Returns the result written to compare-scoring.json."""
    if task not in tasks.TASKS:          # before any training: the held-out pairs are generated
        raise SettingError("task", message("papers.built_in_task", tasks=", ".join(tasks.TASKS),
                                           command="compare-scoring", task=task))
    check_number("seeds", seeds, low=1, high=10, integer=True)
    check_settings(epochs=epochs, num_examples=num_examples, hidden_size=hidden_size,
                   max_len=max_len)
    out = Path(runs.check_out(out))
    configs = {f"{score}-{seed}": scoring_config(out, score, seed, task, epochs, num_examples,
                                                 hidden_size, max_len)
               for score in SCORES for seed in range(seeds)}
    with experiment_folder(out, "compare-scoring", configs, RESULTS, overwrite, log,
                           OPTIONS) as place:
        return _compare(place, configs, log, n_held_out)


def _compare(out, configs, log, n_held_out):
    from seq2seq.data import heldout
    from seq2seq.papers.plots import plot_scoring
    from seq2seq.translator import load_translator

    first = next(iter(configs.values()))
    result = {"experiment": "compare-scoring", "task": first.task, "epochs": first.epochs,
              "hidden_size": first.hidden_size, "scores": {}}
    models = [(config, translator, seconds / config.epochs)
              for _, config, translator, seconds in trained(configs, log)]
    pairs = tasks.make_task(first.task, n_held_out, seed=12345, min_len=first.min_len,
                           max_len=first.max_len)
    for config, _, _ in models:             # held out from every model: the same for all
        state = load_translator(config.out)[1]
        pairs, _ = heldout.drop_seen(pairs, heldout.read_record(state, config.out))
    references = [r for _, r in pairs]
    for config, translator, seconds in models:
        hypotheses = [t.text for t in translator.translate([s for s, _ in pairs])]
        row = result["scores"].setdefault(config.attention, {
            "attention_parameters": sum(p.data.size for p in
                                        translator.model.decoder.attention.parameters()),
            "exact_match": [], "bleu": [], "cpu_seconds_per_epoch": []})
        row["exact_match"].append(metrics.exact_match(hypotheses, references))
        row["bleu"].append(metrics.corpus_bleu(hypotheses, references,
                                               metrics.bleu_tokens(translator.level)))
        row["cpu_seconds_per_epoch"].append(seconds)
    result["sentences"] = len(pairs)
    return write_results(out, RESULTS, result, lambda path: plot_scoring(
        result, path, overwrite=True), log, table(result))          # overwrite: claimed above


def table(result):
    lines = ["\n" + message("papers.scoring_head", task=result["task"],
                             count=result["sentences"]),
             f"{cell(message('papers.score'), 9)} {cell(message('papers.parameters'), 10, '>')}  "
             f"{cell(message('papers.exact_match'), 24)} {'BLEU':18} "
             + message("papers.cpu_per_epoch")]
    for score, row in result["scores"].items():
        lines.append(f"{score:9} {row['attention_parameters']:10d}  "
                     f"{' '.join(f'{x:6.1%}' for x in row['exact_match']):24} "
                     f"{' '.join(f'{x:.3f}' for x in row['bleu']):18} "
                     f"{' '.join(f'{x:.2f}' for x in row['cpu_seconds_per_epoch'])}")
    return lines


def add_command(sub):
    p = sub.add_parser("compare-scoring", help="Luong et al. 2015: the dot, general and "
                       "additive scores on one task, accuracy and time per epoch")
    p.add_argument("--out", default="runs/compare-scoring",
                   help="the folder for the table and the JSON")
    p.add_argument("--task", default="toy-ja-en", help="the built-in task every model learns")
    p.add_argument("--seeds", type=int, default=2, help="models per score, 2 to 10 (default: "
                   "%(default)s; the Python API takes 1)")
    p.add_argument("--epochs", type=int, default=5, help="training epochs of each model")
    p.add_argument("--num-examples", type=int, default=4000, help="pairs generated for the task")
    p.add_argument("--hidden-size", type=int, default=64, help="the LSTMs' state size")
    p.add_argument("--max-len", type=int, default=None,
                   help="the longest source (default: the task's own)")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier compare-scoring run's")
    p.set_defaults(func=lambda a: compare_scoring(
        a.out, a.task, a.seeds, a.epochs, a.num_examples, a.hidden_size, a.max_len,
        overwrite=a.overwrite) and None)
