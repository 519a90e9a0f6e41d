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

import sys

import numpy as np

import minigrad
import minigrad.functional as F
from minigrad.grade.grader import Exercise, SolutionFailed, call, compare_arrays, grade, main
from minigrad.grade.process import run_child
from minigrad.optim import Adam
from seq2seq.data.batching import pad_sources, pad_targets
from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.rnn import Seq2Seq

PAD, BOS, EOS = 0, 1, 2
VOCAB = 9                           # ids 4..8 are the "digits"

# (label, source ids, beam_size, max_len)
CASES = [
    ("beam_size=1 is greedy decoding", [8, 6], 1, 7),
    ("greedy is not the best: a beam of 2 does better", [6, 7, 5, 5, 7], 2, 7),
    ("a beam of 2 on another source", [4, 4, 7, 5, 6], 2, 7),
    ("a beam of 3", [6, 8, 4, 8], 3, 7),
    ("a beam of 3 on a short source", [7, 6], 3, 7),
    ("a beam of 4", [6, 7, 5, 5, 7], 4, 7),
    ("max_len=2 cuts the translations short", [6, 8, 4, 8], 2, 2),
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
        raise SolutionFailed(f"beam_search: return (ids, weights), a tuple of two, for {where}; "
                             f"yours returned {type(result).__name__}")
    ids, weights = result
    try:
        ids = [int(i) for i in ids]
    except (TypeError, ValueError):
        raise SolutionFailed(f"beam_search: ids must be a list of token ids, got {ids!r}, for "
                             f"{where}") from None
    if BOS in ids[:1] or EOS in ids:
        raise SolutionFailed(f"beam_search: the ids {ids} should hold neither <bos> ({BOS}) nor "
                             f"<eos> ({EOS}), for {where}")
    if len(ids) > max_len:
        raise SolutionFailed(f"beam_search: {len(ids)} tokens is more than max_len={max_len}, "
                             f"for {where}")
    return ids, weights


def describe(case, number):
    label, source, beam_size, max_len = case
    return (f'case {number} of {len(CASES)}, "{label}" (source {source}, beam_size '
            f'{beam_size}, max_len {max_len})')


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
        raise SolutionFailed(f"beam_search: the attention weights should be an array of numbers, "
                             f"(n, S); yours are a {type(weights).__name__}, for {where}") from None


def grade_case(exercise, results, model, case, number):
    """The verdict on one case, from what the graded code's process gave back."""
    _, source, beam_size, max_len = case
    where = describe(case, number)
    facts = results.case(number, where)
    if "failed" in facts:
        raise SolutionFailed(facts["failed"])
    src = np.array([source])
    found = results.array(f"{number}/ids", "ids", where)
    if found.ndim != 1 or not np.issubdtype(found.dtype, np.integer):
        raise SolutionFailed(f"beam_search: ids must be a list of token ids, for {where}")
    weights = (results.array(f"{number}/weights", "attention weights", where)
               if results.has(f"{number}/weights") else None)
    ids, weights = unpack((found.tolist(), weights), where, max_len)
    finished = len(ids) < max_len           # fewer than max_len tokens: it ended with <eos>
    mine, expected_weights = score(model, src, ids, finished)
    best_ids, _ = beam_search(model, src, BOS, EOS, beam_size, max_len)
    best, _ = score(model, src, best_ids, len(best_ids) < max_len)
    if beam_size == 1:
        [greedy_ids], _ = greedy(model, src, BOS, EOS, max_len)
        if ids != greedy_ids:
            raise SolutionFailed(f"beam_search: with beam_size=1 beam search is greedy decoding, "
                                 f"which gives {greedy_ids} (log-probability {best:.6g}); yours "
                                 f"gave {ids} (log-probability {mine:.6g}), for {where}")
    if mine < best - 1e-6:
        raise SolutionFailed(f"beam_search: your translation {ids} has log-probability "
                             f"{mine:.6g}; the reference found {best_ids} with {best:.6g} (higher "
                             f"is better), for {where}")
    if weights is None:
        raise SolutionFailed(f"beam_search: the model has attention, so return its weights, one "
                             f"row per output token ({len(expected_weights)} here), for {where}")
    compare_arrays("beam_search: the array of attention weights", weights, expected_weights,
                   where, atol=1e-7, rtol=1e-6)


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
            raise SolutionFailed(f"{failure}\n  to reproduce: from seq2seq.grade import "
                                 f"grading_model, CASES; model = grading_model(); label, "
                                 f"source, beam_size, max_len = CASES[{number - 1}]") from None
    return (f"beam_search: {len(CASES)} cases; greedy with beam_size=1, translations at least "
            f"as likely as the reference's, and their attention weights")


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
