"""alignments: Bahdanau, Cho and Bengio (2015), Fig. 3, on a CPU.

    python -m seq2seq alignments --out runs/alignments

The paper shows the attention weights of a trained English-to-French model as matrices: mostly
along the diagonal, and off it where the word order differs ("European Economic Area" -> "zone
économique européenne"). Nobody tells the model the alignment; it finds it because attending
there lowers the loss. Here two models train on tasks whose right alignment is known, and the
attention mass on the expected cells is measured on held-out sentences the model translates
right:

reverse    "40719" -> "91704": output digit t is source digit n-1-t, the anti-diagonal.
toy-ja-en  "ねこ が さかな を たべる" -> "the cat eats fish": the object comes before the verb in
           Japanese and after it in English, so the verb's row crosses to the end of its clause
           (the crossing verb: an English verb with an object, whose Japanese verb follows を).
           Nouns, adjectives and verbs ("content words") are measured too, each on the
           Japanese word it translates (tasks.NOUNS, ADJECTIVES, VERBS); "the", "of", "and" have
           no single source word and are left out, as is a word whose source word occurs twice.

The encoder reads left to right only: its state at a word has read that word and the ones before
it, and none after. (A bidirectional encoder's state at を has already read the verb, from the
right, and a model may attend there instead: see uniform-and-seeds.)

Writes OUT/reverse/ and OUT/toy-ja-en/ (the two runs), alignments.json (the mass, and the share
of rows whose largest weight is on the expected cell, for each kind of row) and alignments.png
(plots.plot_alignments: two held-out sentences of each task).
"""

import numpy as np

from seq2seq.commands import runs
from seq2seq.commands.demo import held_out_pairs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.train import TrainConfig
from seq2seq.data import tasks
from seq2seq.papers.folder import experiment_folder, trained, write_results
from seq2seq.papers.table_text import cell

RESULTS = ("alignments.json", "alignments.png")

# English word -> the Japanese word it translates (every English word here comes from one)
ENGLISH_TO_JAPANESE = {
    **{english: japanese for japanese, english in {**tasks.NOUNS, **tasks.ADJECTIVES}.items()},
    **{form: japanese for japanese, (one, two, _) in tasks.VERBS.items() for form in (one, two)}}
VERB_FORMS = {form for one, two, _ in tasks.VERBS.values() for form in (one, two)}
# A kind of row (a key of the results) -> the message that names it in the text printed
KIND_NAMES = {"digits": "papers.kind_digits", "crossing verb": "papers.kind_crossing",
              "content words": "papers.kind_content"}


def alignment_config(out, name, seed=0):
    """The config of the model that learns the task `name` ("reverse" or "toy-ja-en")."""
    common = dict(out=str(out / name), attention="dot", seed=seed, progress=False)
    if name == "reverse":
        return TrainConfig(task="reverse", embed_size=16, hidden_size=64, batch_size=32,
                           epochs=5, num_examples=4000, min_len=3, max_len=10, lr=5e-3, **common)
    return TrainConfig(task="toy-ja-en", embed_size=32, hidden_size=64, batch_size=64, epochs=5,
                       num_examples=4000, max_len=12, lr=1e-2, lr_decay=0.7, **common)


def expected_cells(task, source, output):
    """{kind of row: [(output row, source column), ...]}: where each row should look.
    `source` and `output` are token lists (the output without <eos>)."""
    if task == "reverse":
        return {"digits": [(t, len(source) - 1 - t) for t in range(len(output))]}
    content, crossing = [], []
    for row, word in enumerate(output):
        japanese = ENGLISH_TO_JAPANESE.get(word)
        if japanese is None or source.count(japanese) != 1 or output.count(word) != 1:
            continue
        column = source.index(japanese)
        content.append((row, column))
        if word in VERB_FORMS and column > 0 and source[column - 1] == "を":
            crossing.append((row, column))
    return {"crossing verb": crossing, "content words": content}


def measure(task, translations, references):
    """{kind: {"rows", "mass", "argmax"}}: over the translations equal to their reference, the
    mean weight on the expected cell of each row of that kind, and the share of those rows whose
    largest weight is there (None for a kind with no row)."""
    found = {kind: [] for kind in expected_cells(task, [], [])}
    for translation, reference in zip(translations, references):
        if translation.text != reference:
            continue
        output = translation.tokens[:-1]                        # without <eos>
        for kind, cells in expected_cells(task, translation.source_tokens, output).items():
            for row, column in cells:
                weights = translation.weights[row]
                found[kind].append((weights[column], weights.argmax() == column))
    return {kind: {"rows": len(cells),
                   "mass": float(np.mean([m for m, _ in cells])) if cells else None,
                   "argmax": float(np.mean([a for _, a in cells])) if cells else None}
            for kind, cells in found.items()}


def alignments(out="runs/alignments", seed=0, log=say, n_held_out=500, overwrite=False,
               configs=None):
    """Train both models, measure their alignment on held-out sentences, draw two of each.
    `configs` replaces the models' configs (a test's smaller budget). Returns the result written
    to alignments.json."""
    from pathlib import Path
    out = Path(runs.check_out(out))
    configs = configs or {name: alignment_config(out, name, seed) for name in ("reverse",
                                                                            "toy-ja-en")}
    with experiment_folder(out, "alignments", configs, RESULTS, overwrite, log) as place:
        return _alignments(place, configs, seed, log, n_held_out)


def _alignments(out, configs, seed, log, n_held_out):
    from seq2seq.papers.plots import plot_alignments

    result, examples = {"experiment": "alignments"}, []
    for name, config, translator, _ in trained(configs, log, "papers.training_model"):
        pairs, _ = held_out_pairs(config, n_held_out, seed + 1)
        translations = translator.translate([s for s, _ in pairs])
        right = [t.text == r for t, (_, r) in zip(translations, pairs)]
        result[name] = {"sentences": len(pairs), "exact_match": float(np.mean(right)),
                        **measure(config.task, translations, [r for _, r in pairs])}
        examples += examples_to_draw(config.task, translations, right)
        log(message("papers.aligned", name=name, exact=result[name]["exact_match"],
                    count=len(pairs)))
        for kind, row in result[name].items():
            if isinstance(row, dict) and row["rows"]:
                log(message("papers.aligned_rows", kind=cell(message(KIND_NAMES[kind]), 14),
                            rows=row["rows"], mass=row["mass"], argmax=row["argmax"]))
    return write_results(out, RESULTS, result, lambda path: plot_alignments(
        examples, path, overwrite=True), log)                       # overwrite: claimed above


def examples_to_draw(task, translations, right):
    """Two translations to draw: right ones of 8 tokens or more (for toy-ja-en, with a crossing
    verb), the second the longest; failing that, right ones; failing that, the first two."""
    def crossing(t):
        return task == "reverse" or expected_cells(task, t.source_tokens,
                                                   t.tokens[:-1])["crossing verb"]
    right = [t for t, ok in zip(translations, right) if ok]
    for tier in ([t for t in right if len(t.source_tokens) >= 8 and crossing(t)], right,
                 translations):
        if tier:
            return [tier[0], max(tier[1:] or tier, key=lambda t: len(t.source_tokens))]
    return []


def add_command(sub):
    p = sub.add_parser("alignments", help="Bahdanau et al. 2015, Fig. 3: the alignments a "
                       "trained model finds, measured against the expected ones")
    p.add_argument("--out", default="runs/alignments",
                   help="the folder for the figure and the JSON")
    p.add_argument("--seed", type=int, default=0, help="seeds the data and the weights")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier alignments run's")
    p.set_defaults(func=lambda a: alignments(a.out, a.seed, overwrite=a.overwrite) and None)
