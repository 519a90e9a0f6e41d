"""The beam-search exercise (docs/coursework.md), graded with minigrad.grade's machinery:

    python -m seq2seq.grade beam_search my_beam.py

The student writes `beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50)` with the
contract of `seq2seq.models.decoding.beam_search` (the reference). Unlike the other exercises'
references (in the project's tests, compared with through stored values), this one stays in the
package: `translate` needs it, and the grader runs it here. A solution that runs it is refused
(minigrad.grade.answers). Beam search is a heuristic, so the grader does not insist on the
reference's exact tokens; for each case it asks:

- with beam_size=1, is the result exactly greedy decoding?
- is the translation at least as likely as the reference's? (its log-probability is computed
  independently, by teacher forcing the model on it)
- are the attention weights returned those of that translation, one row per output token?

The model is small, trained for a few steps on reversing digit strings so that its guesses are
uncertain and a wider beam finds better translations than greedy decoding.

The student's beam_search runs in a process of its own (minigrad.grade.process), on a copy of
the model made from its weights; its ids and weights come back as arrays, and the questions
above are asked here, of this process's model.
"""

import operator
import sys

import numpy as np

import minigrad
import minigrad.functional as F
from minigrad.grade.grader import Exercise, SolutionFailed, call, compare_arrays, grade, main
from minigrad.grade.process import run_child
from minigrad.messages import Phrase
from minigrad.optim import Adam
from seq2seq.commands.messages import message
from seq2seq.data.batching import pad_sources, pad_targets
from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.rnn import Seq2Seq

PAD, BOS, EOS = 0, 1, 2
VOCAB = 9                           # ids 4..8 are the "digits"


class Label(Phrase):
    """A case's label, a key of seq2seq's catalogue: str() gives it in the language of the
    messages, settled when the case is described, not when CASES is made at import time."""

    def __str__(self):
        return message(self.key)


# (label, source ids, beam_size, max_len)
CASES = [
    (Label("beam.case_greedy"), [8, 6], 1, 7),
    (Label("beam.case_better"), [6, 7, 5, 5, 7], 2, 7),
    (Label("beam.case_another"), [4, 4, 7, 5, 6], 2, 7),
    (Label("beam.case_three"), [6, 8, 4, 8], 3, 7),
    (Label("beam.case_three_short"), [7, 6], 3, 7),
    (Label("beam.case_four"), [6, 7, 5, 5, 7], 4, 7),
    (Label("beam.case_cut"), [6, 8, 4, 8], 2, 2),
]


def grading_model(steps=12, seed=0):
    """The model every case is decoded with: float64, attention, trained `steps` Adam steps on
    24 reversed sequences (uncertain on purpose)."""
    rng = np.random.default_rng(seed)
    sources = [list(rng.integers(4, VOCAB, rng.integers(2, 5))) for _ in range(24)]
    src = pad_sources(sources, PAD)
    tgt = pad_targets([[BOS] + s[::-1] + [EOS] for s in sources], PAD)
    minigrad.manual_seed(seed)
    model = untrained_model()
    optimizer = Adam(model.parameters(), lr=0.03)
    for _ in range(steps):
        loss = model.loss(src, tgt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model.eval()


def untrained_model():
    """The grading model's shape, float64; its weights come from training, or from the grader."""
    return Seq2Seq(VOCAB, VOCAB, embed_size=8, hidden_size=12, attention="dot").double()


def score(model, src, ids, finished):
    """log P(ids [+ <eos>] | src) under the model, by teacher forcing, and the attention weights
    of every step (one row per output token)."""
    tgt = np.array([[BOS] + list(ids) + ([EOS] if finished else [])])            # (1, T+1)
    with minigrad.no_grad():
        logits, weights = model(src, tgt[:, :-1])                               # (1, T, V)
    log_p = F.log_softmax(logits).data[0]                                       # (T, V)
    total = float(log_p[np.arange(tgt.shape[1] - 1), tgt[0, 1:]].sum())
    return total, (None if weights is None else weights.data[0])                # (T, S)


def unpack(result, where, max_len):
    """(ids as a list of ints, weights or None), or a SolutionFailed saying what is off."""
    if not (isinstance(result, tuple) and len(result) == 2):
        raise SolutionFailed(message("beam.not_a_pair", where=where,
                                     type=type(result).__name__))
    ids, weights = result
    try:
        ids = [operator.index(i) for i in ids]     # 4.0 or "4" is refused, not cut to an int
    except TypeError:
        raise SolutionFailed(message("beam.ids_not_list", ids=ids, where=where)) from None
    outside = [i for i in ids if not 0 <= i < VOCAB]
    if outside:
        raise SolutionFailed(message("beam.id_outside", id=outside[0], last=VOCAB - 1,
                                     where=where))
    if BOS in ids[:1] or EOS in ids:
        raise SolutionFailed(message("beam.bos_eos", ids=ids, bos=BOS, eos=EOS, where=where))
    if len(ids) > max_len:
        raise SolutionFailed(message("beam.too_long", count=len(ids), max_len=max_len,
                                     where=where))
    return ids, weights


def describe(case, number):
    label, source, beam_size, max_len = case
    return message("beam.case", number=number, total=len(CASES), label=label, source=source,
                   beam_size=beam_size, max_len=max_len)


def beam_search_results(exercise, solution, fn, meta, arrays, result, facts):
    """In the graded code's process (minigrad.grade.child): the student's beam_search on every
    case, with the grader's model (its weights sent in the request). Keeps `k/ids` and
    `k/weights` (when not None) for case k; the first error stops it."""
    model = untrained_model()
    model.load_state_dict({name[len("model/"):]: value for name, value in arrays.items()
                           if name.startswith("model/")})
    model.eval()
    path = getattr(solution, "__file__", None)
    for number, case in enumerate(CASES, 1):
        found = {}
        facts.append(found)
        _, source, beam_size, max_len = case
        where = describe(case, number)
        try:
            value = call(exercise, fn, [model, np.array([source]), BOS, EOS],
                         {"beam_size": beam_size, "max_len": max_len}, where, path)
            ids, weights = unpack(value, where, max_len)
            result[f"{number}/ids"] = np.array(ids, dtype=np.int64)
            if weights is not None:
                result[f"{number}/weights"] = as_numbers(weights, where)
        except SolutionFailed as failure:
            found["failed"] = str(failure)
            return


def as_numbers(weights, where):
    try:
        return np.asarray(getattr(weights, "data", weights), dtype=np.float64)
    except (TypeError, ValueError):
        raise SolutionFailed(message("beam.weights_not_numbers", type=type(weights).__name__,
                                     where=where)) from None


def grade_case(exercise, results, model, case, number):
    """The verdict on one case, from what the graded code's process gave back."""
    _, source, beam_size, max_len = case
    where = describe(case, number)
    facts = results.case(number, where)
    if "failed" in facts:
        raise SolutionFailed(facts["failed"])
    src = np.array([source])
    found = results.array(f"{number}/ids", message("beam.ids"), where)
    if found.ndim != 1 or not np.issubdtype(found.dtype, np.integer):
        raise SolutionFailed(message("beam.ids_not_integers", where=where))
    weights = (results.array(f"{number}/weights", message("beam.attention_weights"), where)
               if results.has(f"{number}/weights") else None)
    ids, weights = unpack((found.tolist(), weights), where, max_len)
    finished = len(ids) < max_len           # fewer than max_len tokens: it ended with <eos>
    mine, expected_weights = score(model, src, ids, finished)
    best_ids, _ = beam_search(model, src, BOS, EOS, beam_size, max_len)
    best, _ = score(model, src, best_ids, len(best_ids) < max_len)
    if beam_size == 1:
        [greedy_ids], _ = greedy(model, src, BOS, EOS, max_len)
        if ids != greedy_ids:
            raise SolutionFailed(message("beam.not_greedy", greedy=greedy_ids, best=best,
                                         ids=ids, mine=mine, where=where))
    if mine < best - 1e-6:
        raise SolutionFailed(message("beam.less_likely", ids=ids, mine=mine, found=best_ids,
                                     best=best, where=where))
    if weights is None:
        raise SolutionFailed(message("beam.no_weights", count=len(expected_weights),
                                     where=where))
    compare_arrays(message("beam.weights"), weights, expected_weights, where, atol=1e-7,
                   rtol=1e-6)


def run(path, exercise):
    """Grade the file at `path`: its beam_search runs in a process of its own
    (minigrad.grade.process) with this model's weights; the verdict is written here."""
    model = grading_model()
    weights = {f"model/{name}": np.asarray(value) for name, value in model.state_dict().items()}
    results = run_child(exercise, path, "seq2seq.grade:beam_search_results", {}, weights)
    for key in ("refused", "failed"):
        if key in results.facts:
            raise SolutionFailed(results.facts[key])
    for number, case in enumerate(CASES, 1):
        try:
            grade_case(exercise, results, model, case, number)
        except SolutionFailed as failure:
            reproduce = message("beam.reproduce", index=number - 1)
            raise SolutionFailed(f"{failure}\n  {reproduce}") from None
    return message("beam.passed", count=len(CASES))


# The reference is the project's own beam search, which `translate` uses: a solution may not run
# it (greedy decoding, the rest of seq2seq.models.decoding, the model: all allowed).
EXERCISES = {"beam_search": Exercise(
    "beam_search", "beam search over a Seq2Seq model's decoder", "beam_search",
    "beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50) -> (ids, weights)",
    run, answers=(beam_search,))}


def grade_file(path):
    """Grade the file at `path`: the 'passed: ...' line, or SolutionFailed."""
    return grade(EXERCISES, "beam_search", path)


if __name__ == "__main__":
    sys.exit(main(EXERCISES, "python -m seq2seq.grade"))
