"""The beam-search grader (python -m seq2seq.grade): the project's beam search passes, and
searches that are greedy, forget the running score, or lose the attention weights fail with the
case and both log-probabilities."""

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from minigrad.grade import SolutionFailed
from seq2seq.grade import BOS, CASES, EOS, grade_file, grading_model, score
from seq2seq.models import decoding

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(decoding.__file__).read_text(encoding="utf-8")


def changed(old, new):
    """decoding.py with one line changed: a deliberately wrong beam search."""
    assert old in SOURCE
    return SOURCE.replace(old, new)


def failure(path):
    with pytest.raises(SolutionFailed) as caught:
        grade_file(path)
    return str(caught.value)


def test_the_projects_beam_search_passes(tmp_path):
    assert grade_file(student_file(tmp_path, SOURCE)).startswith("passed: beam_search: 7 cases")


def test_the_cases_need_a_real_beam():
    """Greedy decoding is worse than the beam on the cases that say so, so a greedy submission
    cannot pass; and the max_len case ends unfinished."""
    model = grading_model()
    worse = 0
    for _, source, beam_size, max_len in CASES:
        src = np.array([source])
        [greedy_ids], _ = decoding.greedy(model, src, BOS, EOS, max_len)
        beam_ids, _ = decoding.beam_search(model, src, BOS, EOS, beam_size, max_len)
        greedy_score = score(model, src, greedy_ids, len(greedy_ids) < max_len)[0]
        beam_score = score(model, src, beam_ids, len(beam_ids) < max_len)[0]
        worse += greedy_score < beam_score - 1e-3
        if max_len == 2:
            assert len(beam_ids) == 2
    assert worse >= 4


def test_greedy_decoding_fails_with_both_log_probabilities(tmp_path):
    path = student_file(tmp_path, textwrap.dedent("""
        from seq2seq.models.decoding import greedy

        def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
            [ids], [weights] = greedy(model, src, bos_id, eos_id, max_len)
            return ids, weights
    """))
    message = failure(path)
    assert message.startswith("beam_search: your translation [5, 5] has log-probability -3.72006; "
                              "the reference found [7, 5] with -3.29932 (higher is better), for "
                              'case 2 of 7, "greedy is not the best: a beam of 2 does better" '
                              "(source [6, 7, 5, 5, 7], beam_size 2, max_len 7)")
    assert "CASES[1]" in message


def test_a_beam_that_forgets_the_running_score_fails(tmp_path):
    wrong = changed("candidates.append((score + log_p[b, token], b, int(token)))",
                    "candidates.append((log_p[b, token], b, int(token)))")
    message = failure(student_file(tmp_path, wrong))
    assert "the reference found" in message and "(higher is better)" in message


def test_a_beam_that_returns_the_ids_with_eos_fails(tmp_path):
    wrong = changed("finished.append((ids, score, new_rows))",
                    "finished.append((ids + [token], score, new_rows))")
    message = failure(student_file(tmp_path, wrong))
    assert "should hold neither <bos> (1) nor <eos> (2)" in message


@pytest.mark.parametrize("ids, wrong", [("[10**9, 4]", "id 1000000000 is not"),
                                         ("[-3]", "id -3 is not"),
                                         ("[4.0]", "got [4.0]")])
def test_ids_that_are_not_the_models_token_ids_fail_as_a_verdict(tmp_path, ids, wrong):
    """An id past the vocabulary or below 0 failed as a program error (an IndexError of the
    embedding, naming no case), and a float id was cut to an int and graded."""
    path = student_file(tmp_path, "def beam_search(model, src, bos_id, eos_id, beam_size=4, "
                        f"max_len=50):\n    return {ids}, None\n")
    message = failure(path)
    assert message.startswith("beam_search: ") and wrong in message and "for case 1 of" in message


def test_a_beam_that_loses_the_attention_weights_fails(tmp_path):
    wrong = changed("return ids, (np.stack(rows) if rows else None)", "return ids, None")
    message = failure(student_file(tmp_path, wrong))
    assert message.startswith("beam_search: the model has attention, so return its weights, "
                              'one row per output token (3 here), for case 1 of 7')


def test_weights_of_the_wrong_beam_are_caught(tmp_path):
    """Rows taken from beam 0 whatever beam the hypothesis came from."""
    wrong = changed("new_rows = rows + ([] if w is None else [w.data[b]])",
                    "new_rows = rows + ([] if w is None else [w.data[0]])")
    message = failure(student_file(tmp_path, wrong))
    assert message.startswith("beam_search: the array of attention weights is wrong for case")


def test_beam_size_one_must_be_greedy(tmp_path):
    path = student_file(tmp_path, textwrap.dedent("""
        def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
            return [], None
    """))
    assert failure(path).startswith("beam_search: with beam_size=1 beam search is greedy "
                                    "decoding, which gives [6, 6]")


def test_command_line(tmp_path):
    path = student_file(tmp_path, SOURCE)
    run = subprocess.run([sys.executable, "-m", "seq2seq.grade", "beam_search", str(path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("passed: beam_search")
