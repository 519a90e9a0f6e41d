"""uniform-and-seeds: is the attention map the reason for the output? Two tests from the
literature, on toy-ja-en.

    python -m seq2seq uniform-and-seeds --out runs/uniform-and-seeds

Jain and Wallace (2019), "Attention is not Explanation", found attention weights that disagree
with other measures of importance, and other weights that give the same outputs. Wiegreffe and
Pinter (2019), "Attention is not not Explanation", answered with tests of their own; this runs
two of them:

uniform  the same model trained with its weights frozen to uniform (attention.UniformAttention:
         each source position weighs 1/S, the context is the mean of the encoder's states). If it
         does as well, the learned weights were not needed, and their map cannot be the reason
         for the outputs. Exact match for both, overall and by source length.
seeds    k models that differ only in their seed: the same sentences (written to OUT/pairs.tsv,
         so that no seed changes the data), other initial weights and batch order. How often do
         two of them write the same translation, and, on the sentences both translate alike and
         right, how often does a row's largest weight sit on another source word? The Jensen-
         Shannon divergence (JSD) between the two models' rows, and between a row and uniform
         weights for scale (ln 2 = 0.693 is the most there is). And where each model's crossing
         verb looks (seq2seq.papers.alignments): at the verb, or at the を before it.

The encoder is bidirectional, as in the paper the demo follows: the state at a word has read the
whole sentence, from both sides, so the word under a column is not all that column holds.

Writes OUT/pairs.tsv, OUT/seed-0/, OUT/seed-1/, ... and OUT/uniform/ (the runs),
uniform-and-seeds.json and uniform-and-seeds.png (plots.plot_uniform_and_seeds). As every
experiment, it makes them in OUT/.next and swaps them in once they are all written
(seq2seq.papers.folder); its models are trained on OUT/.next/pairs.tsv but record OUT/pairs.tsv,
the place the swap moves that file to (`record_pairs_file`), so that `train --resume` and
`evaluate` find it there.
"""

import itertools
from pathlib import Path

import numpy as np

from minigrad.files import atomic_write
from seq2seq import metrics
from seq2seq.commands import runs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_settings
from seq2seq.commands.train import TrainConfig
from seq2seq.data import tasks
from seq2seq.data.vocab import tokenize
from seq2seq.papers.alignments import expected_cells
from seq2seq.papers.folder import experiment_folder, trained, write_results

RESULTS = ("uniform-and-seeds.json", "uniform-and-seeds.png", "pairs.tsv")


def explanation_config(out, name, hidden_size=64, epochs=5):
    """The config of the model in out/name: "seed-N" (dot attention, seed N) or "uniform" (seed
    0, as seed-0). Its task is the pairs file OUT/pairs.tsv, read whole: the lengths of its
    sentences are chosen where it is written."""
    seed = 0 if name == "uniform" else int(name.split("-")[1])
    return TrainConfig(task=str(Path(out) / "pairs.tsv"), level="word", out=str(Path(out) / name),
                       attention="uniform" if name == "uniform" else "dot", bidirectional=True,
                       embed_size=32, hidden_size=hidden_size, batch_size=64, epochs=epochs,
                       lr=5e-3, lr_decay=0.7, val_fraction=0.0, seed=seed, progress=False)


def uniform_and_seeds(out="runs/uniform-and-seeds", seeds=3, log=say, num_examples=4000,
                      n_held_out=600, overwrite=False, hidden_size=64, epochs=5, max_len=12):
    """Train `seeds` models with learned weights and one with uniform weights on the same
    num_examples toy-ja-en pairs of up to max_len words; compare them on n_held_out sentences
    none trained on. Returns the result written to uniform-and-seeds.json."""
    check_settings(seeds=seeds, num_examples=num_examples, hidden_size=hidden_size,
                   epochs=epochs, max_len=max_len)
    out = Path(runs.check_out(out))
    names = [f"seed-{seed}" for seed in range(seeds)] + ["uniform"]
    configs = {name: explanation_config(out, name, hidden_size, epochs) for name in names}
    # "max_len": an earlier version recorded it in its configs (ignored for a pairs file)
    with experiment_folder(out, "uniform-and-seeds", configs, RESULTS, overwrite, log,
                           {"max_len"}) as place:
        pairs = tasks.make_task("toy-ja-en", num_examples, seed=0, max_len=max_len)
        text = "".join(f"{source}\t{target}\n" for source, target in pairs)
        atomic_write(place / "pairs.tsv", lambda file: file.write(text), text=True)
        trained = {source for source, _ in pairs}
        held_out = [pair for pair in tasks.make_task("toy-ja-en", n_held_out, seed=1,
                                                    max_len=max_len) if pair[0] not in trained]
        return _compare(place, configs, held_out, log)


def _compare(place, configs, held_out, log):
    from seq2seq.papers.plots import plot_uniform_and_seeds

    sources, references = [s for s, _ in held_out], [r for _, r in held_out]
    # pairs.tsv is toy-ja-en at its own level, words: as for the task by name, no level line
    translations = {name: translator.translate(sources)
                    for name, _, translator, _ in trained(configs, log, note_level=False,
                                                          pairs_file=place / "pairs.tsv")}
    for config in configs.values():
        record_pairs_file(config.out, config.task)
    seeds = [name for name in configs if name != "uniform"]
    lengths = [tokenize(s, "word") for s in sources]
    result = {"experiment": "uniform-and-seeds", "sentences": len(held_out), "exact_match": {
        name: metrics.exact_match([t.text for t in translations[name]], references)
        for name in configs}}
    result["by_length"] = {name: {str(n): v for n, v in metrics.accuracy_by_length(
        lengths, [t.text for t in translations[name]], references).items()}
        for name in (seeds[0], "uniform")}
    result["pairs"] = [compare_maps(translations[a], translations[b], references) | {
        "seeds": [a, b]} for a, b in itertools.combinations(seeds, 2)]
    result["crossing verb"] = {name: crossing_verb(translations[name], references)
                               for name in seeds}
    a, b = seeds[:2]
    shown = example(translations[a], translations[b], references)
    return write_results(place, RESULTS, result, lambda path: plot_uniform_and_seeds(
        result, shown, (a, b), path, overwrite=True), log, report(result))  # claimed above


def record_pairs_file(run, path):
    """Make the checkpoint of `run` record `path` as the place of its pairs file: the run read
    the file at OUT/.next/pairs.tsv, which the swap moves to `path` (OUT/pairs.tsv), bytes and
    sha256 unchanged. Rewritten atomically, before the swap begins: a kill before then leaves
    the earlier results whole (seq2seq.papers.swap)."""
    import minigrad
    from seq2seq.commands import task_file
    from seq2seq.commands.checkpoint_reading import read_checkpoint

    checkpoint = Path(run) / runs.CHECKPOINT
    state = read_checkpoint(checkpoint)
    state["task_file"] = task_file.record(path, state["task_file"]["sha256"])
    minigrad.save(state, checkpoint)


def jsd(p, q):
    """Jensen-Shannon divergence between rows of weights, in nats (0 .. ln 2), along the last
    axis: the mean of KL(p || m) and KL(q || m), m = (p + q) / 2."""
    m = (p + q) / 2

    def kl(a, b):
        return np.sum(np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(a > 0, b, 1)),
                               0.0), axis=-1)
    return (kl(p, m) + kl(q, m)) / 2


def alike(first, second, references):
    """The indices of the sentences both translate alike, and right."""
    return [i for i, (a, b, r) in enumerate(zip(first, second, references))
            if a.text == b.text == r]


def compare_maps(first, second, references):
    """How two models' outputs and maps agree: see the module docstring."""
    both = alike(first, second, references)
    differs = [first[i].weights.argmax(-1) != second[i].weights.argmax(-1) for i in both]
    rows = np.concatenate(differs) if differs else np.zeros(0, dtype=bool)
    between = np.concatenate([jsd(first[i].weights, second[i].weights) for i in both] or [[]])
    uniform = np.concatenate([jsd(w, np.full_like(w, 1 / w.shape[1]))
                              for i in both for w in (first[i].weights, second[i].weights)]
                             or [[]])
    return {"same_output": float(np.mean([a.text == b.text for a, b in zip(first, second)])),
            "alike_and_right": len(both), "rows": int(rows.size),
            "argmax_differs": float(rows.mean()) if rows.size else 0.0,
            "sentences_with_a_differing_row": float(np.mean([d.any() for d in differs]))
            if differs else 0.0,
            "jsd": float(between.mean()) if between.size else 0.0,
            "jsd_to_uniform": float(uniform.mean()) if uniform.size else 0.0}


def crossing_verb(translations, references):
    """Where the crossing verb's row looks, on the sentences translated right: the mean weight
    on the Japanese verb, and on the を just before it."""
    on_verb, on_wo = [], []
    for translation, reference in zip(translations, references):
        if translation.text != reference:
            continue
        cells = expected_cells("toy-ja-en", translation.source_tokens, translation.tokens[:-1])
        for row, column in cells["crossing verb"]:
            on_verb.append(translation.weights[row, column])
            on_wo.append(translation.weights[row, column - 1])
    return {"rows": len(on_verb), "on the verb": float(np.mean(on_verb or [0])),
            "on を": float(np.mean(on_wo or [0]))}


def example(first, second, references):
    """The sentence both translate alike and right on which their maps differ most (mean JSD)."""
    both = alike(first, second, references)
    if not both:
        return None
    best = max(both, key=lambda i: jsd(first[i].weights, second[i].weights).mean())
    return first[best], second[best]


def report(result):
    exact = result["exact_match"]
    lines = ["\n" + message("papers.uniform_exact", count=result["sentences"], scores=", ".join(
        f"{name} {value:.1%}" for name, value in exact.items()))]
    learned = next(iter(result["by_length"]))
    lines.append(message("papers.uniform_by_length", learned=learned, lengths=", ".join(
        f"{n}: {v:.0%}/{result['by_length']['uniform'].get(n, float('nan')):.0%}"
        for n, v in result["by_length"][learned].items())))
    for pair in result["pairs"]:
        a, b = pair["seeds"]
        lines.append(message(
            "papers.seed_pair", a=a, b=b, same=pair["same_output"],
            alike=pair["alike_and_right"], differs=pair["argmax_differs"], rows=pair["rows"],
            with_row=pair["sentences_with_a_differing_row"], jsd=pair["jsd"],
            uniform=pair["jsd_to_uniform"]))
    for name, verb in result["crossing verb"].items():
        lines.append(message("papers.verb_rows", name=name, rows=verb["rows"],
                             verb=verb["on the verb"], wo=verb["on を"]))
    return lines


def add_command(sub):
    p = sub.add_parser("uniform-and-seeds", help="Jain and Wallace 2019, Wiegreffe and Pinter "
                       "2019: uniform weights as a baseline, and the maps of several seeds")
    p.add_argument("--out", default="runs/uniform-and-seeds",
                   help="the folder for the figure and the JSON")
    p.add_argument("--seeds", type=int, default=3, help="models with learned weights, 2 to 10")
    p.add_argument("--num-examples", type=int, default=4000, help="training pairs")
    p.add_argument("--overwrite", action="store_true", help="replace the experiment's files in "
                   "--out even if they are not an earlier uniform-and-seeds run's")
    p.set_defaults(func=lambda a: uniform_and_seeds(
        a.out, a.seeds, num_examples=a.num_examples, overwrite=a.overwrite) and None)
