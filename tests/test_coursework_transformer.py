"""The Transformer's coursework exercises (python -m attention.grade positional_encoding,
causal_attention): the right solutions pass, and each classic mistake, written in a solution
file, fails with a line that names it (attention/grade/mistakes.py)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attention.grade import SolutionFailed, exercises as attention_exercises, grade, mistakes

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent

POSITIONS = """
    import math

    import numpy as np
    from minigrad import Tensor


    def add_positions(x):
        length, d_model = x.shape[-2], x.shape[-1]
        positions = np.arange(length)[:, None]                          # (T, 1)
        angles = positions / 10000 ** (np.arange(0, d_model, 2) / d_model)
        table = np.zeros((length, d_model))
        table[:, 0::2] = np.sin(angles)
        table[:, 1::2] = np.cos(angles[:, :d_model // 2])
        return x + Tensor(table)
"""

CAUSAL = """
    import math

    import numpy as np
    import minigrad.functional as F
    from minigrad import Tensor
    from attention import softmax


    def causal_attention(query, keys, values):
        length, d = keys.shape[-2], keys.shape[-1]
        scores = query @ keys.swapaxes(-1, -2) / math.sqrt(d)           # (B, T, T)
        allowed = np.tril(np.ones((length, length), dtype=bool))
        weights = softmax(F.where(allowed, scores, Tensor(np.array(-np.inf))))
        return weights @ values, weights
"""


def failure(exercise, path):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def changed(tmp_path, code, old, new):
    assert old in code
    return student_file(tmp_path, code.replace(old, new))


def test_the_right_solutions_pass(tmp_path):
    assert grade("positional_encoding", student_file(tmp_path, POSITIONS, "positions.py")) \
        .startswith("passed: positional_encoding: 4 cases; the outputs (y) and the gradients "
                    "with respect to x agree")
    assert grade("causal_attention", student_file(tmp_path, CAUSAL, "causal.py")).startswith(
        "passed: causal_attention: 4 cases; the outputs (context, weights) and the gradients "
        "with respect to query, keys, values agree")


def test_the_command_line_grades_both(tmp_path):
    for exercise, code in (("positional_encoding", POSITIONS), ("causal_attention", CAUSAL)):
        path = student_file(tmp_path, code, f"{exercise}.py")
        run = subprocess.run([sys.executable, "-m", "attention.grade", exercise, str(path)],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith(f"passed: {exercise}: 4 cases")
    path = changed(tmp_path, CAUSAL, " / math.sqrt(d)", "")
    run = subprocess.run([sys.executable, "-m", "attention.grade", "causal_attention", str(path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert run.stderr.startswith("failed: causal_attention: the output context is wrong for "
                                 "case 1 of 4")
    assert "a known mistake: the scores are not divided by sqrt(d)" in run.stderr


# ---- positional encoding: each mistake named -----------------------------------------------

SIN_COS = ("table[:, 0::2] = np.sin(angles)\n        table[:, 1::2] = np.cos(angles[:, :d_model "
           "// 2])")
ANGLES = "positions / 10000 ** (np.arange(0, d_model, 2) / d_model)"


@pytest.mark.parametrize("old, new, named", [
    (SIN_COS, SIN_COS.replace("sin", "SIN").replace("cos", "sin").replace("SIN", "cos"),
     "sin and cos are swapped"),
    (SIN_COS, "table = np.concatenate([np.sin(angles), np.cos(angles[:, :d_model // 2])], 1)",
     "the sines and the cosines are in two halves [sin ..., cos ...]; they interleave"),
    (ANGLES, "positions / 10000 ** (np.arange((d_model + 1) // 2) / d_model)",
     "the exponent is i/d_model with i the pair's number; it is 2i/d_model"),
    (SIN_COS, "j = np.arange(d_model)\n        table = np.where(j % 2 == 0, np.sin(positions / "
              "10000 ** (j / d_model)), np.cos(positions / 10000 ** (j / d_model)))",
     "each feature uses its own index j in 10000^(j/d_model)"),
    (ANGLES, ANGLES.replace("positions /", "positions *"),
     "pos is multiplied by 10000^(2i/d_model); it is divided by it"),
    (ANGLES, "(positions / 10000) ** (np.arange(0, d_model, 2) / d_model)",
     "(pos / 10000)^(2i/d_model) takes the power of pos / 10000"),
    ("np.arange(length)[:, None]", "np.arange(1, length + 1)[:, None]",
     "the positions start at 1; the first is 0"),
    (ANGLES, ANGLES.replace("10000", "1000"),
     "the wavelengths use the base 1000, not 10000"),
    (ANGLES, ANGLES.replace("10000", "(2 * math.pi * 10000)"),
     "the wavelengths use the base 62831.9, not 10000"),
])
def test_a_positional_encoding_mistake_is_named(tmp_path, old, new, named):
    lines = failure("positional_encoding", changed(tmp_path, POSITIONS, old, new)).splitlines()
    assert lines[0].startswith("positional_encoding: the output y is wrong for case 1 of 4, "
                               '"6 positions, d_model 8"')
    assert lines[3].startswith(f"  a known mistake: {named}")


def test_an_odd_d_model_without_its_last_sine_fails_on_its_case(tmp_path):
    """The table filled for the pairs alone: an odd d_model's last feature is left 0."""
    path = changed(tmp_path, POSITIONS, "np.arange(0, d_model, 2) / d_model",
                   "np.arange(0, d_model - 1, 2) / d_model")
    message = failure("positional_encoding", path)
    assert 'case 2 of 4, "an odd d_model, 7: the last feature is a sine"' in message


# ---- causal attention: each mistake named --------------------------------------------------

TRIL = "np.tril(np.ones((length, length), dtype=bool))"
FILL = "Tensor(np.array(-np.inf))"


@pytest.mark.parametrize("old, new, case, named", [
    (TRIL, "np.triu(np.ones((length, length), dtype=bool))", 1,
     "the future leaks: your mask is transposed"),
    (TRIL, "np.tril(np.ones((length, length), dtype=bool), k=-1)", 1,
     "your mask hides the diagonal too: position t must see itself"),
    (TRIL, "np.ones((length, length), dtype=bool)", 1,
     "the future leaks: nothing is masked"),
    (" / math.sqrt(d)", "", 1, "the scores are not divided by sqrt(d) = sqrt(3)"),
    ("math.sqrt(d)", "math.sqrt(values.shape[-1])", 2,
     "the scores are divided by the square root of the values' width, 2: d is the width of the "
     "queries and keys, 4"),
    (FILL, "Tensor(np.array(-1e4))", 4,
     "the masked scores are a large negative number, as -1e4 is (written into the scores), not "
     "-inf: this case's scores reach 1.99e+04, so later keys keep some weight and the future "
     "leaks"),
    (f"F.where(allowed, scores, {FILL})", "scores + Tensor(np.where(allowed, 0.0, -1e4))", 4,
     "the masked scores are a large negative number, as -1e4 is (added to the scores)"),
    (FILL, "Tensor(np.array(-5000.0))", 4, "the masked scores are a large negative number"),
    (TRIL, "np.tril(np.ones((length, length), dtype=bool), k=1)", 1,      # one step ahead
     "the future leaks: query 2 gives weight 0.253 to the later key 3 (element (0, 2, 3) of "
     "weights); it must be exactly 0"),
])
def test_a_causal_attention_mistake_is_named(tmp_path, old, new, case, named):
    lines = failure("causal_attention", changed(tmp_path, CAUSAL, old, new)).splitlines()
    assert lines[0].startswith(f"causal_attention: the output context is wrong for case {case} "
                               "of 4")
    assert any(line.startswith((f"  a known mistake: {named}", f"  {named}"))
               for line in lines), lines


def test_the_diagonal_masked_is_named_with_either_softmax(tmp_path):
    """The first query has nothing left to attend: attention.softmax gives it zeros, a softmax
    of one's own NaN; the diagnosis takes either."""
    code = CAUSAL.replace("dtype=bool))", "dtype=bool), k=-1)").replace(
        "weights = softmax(F.where(allowed, scores, Tensor(np.array(-np.inf))))",
        "scores = F.where(allowed, scores, Tensor(np.array(-np.inf)))\n"
        "        e = (scores - scores.max(axis=-1, keepdims=True).detach()).exp()\n"
        "        weights = e / e.sum(axis=-1, keepdims=True)")
    message = failure("causal_attention", student_file(tmp_path, code))
    assert "is nan" in message.splitlines()[0] or " nan" in message
    assert "a known mistake: your mask hides the diagonal too" in message


def test_a_mask_of_minus_1e9_passes_as_these_cases_scores_are_far_above_it(tmp_path):
    """exp(-1e9 - s) is 0 in float64 for any score these cases have: -1e9 is as good as -inf
    here (it is not where every key of a query is masked, which a causal mask never does)."""
    path = changed(tmp_path, CAUSAL, FILL, "Tensor(np.array(-1e9))")
    assert grade("causal_attention", path).startswith("passed: causal_attention")


# ---- the project's own versions, and the known mistakes, may not run -----------------------

@pytest.mark.parametrize("exercise, code, ran", [
    ("positional_encoding", """
        from attention import SinusoidalPositions

        def add_positions(x):
            return SinusoidalPositions(x.shape[-1])(x)
    """, "attention.positions.SinusoidalPositions.__init__"),
    ("positional_encoding", """
        from minigrad import Tensor
        from attention.positions import sinusoids

        def add_positions(x):
            return x + Tensor(sinusoids(*x.shape[-2:]))
    """, "attention.positions.sinusoids"),
    ("positional_encoding", """
        from minigrad import Tensor
        from attention.grade.mistakes import with_base

        def add_positions(x):
            return x + Tensor(with_base(*x.shape[-2:], 10000.0))
    """, "the file of attention.grade.mistakes (mistakes.py)"),
    ("causal_attention", """
        from attention import causal_mask, dot_product_attention

        def causal_attention(query, keys, values):
            return dot_product_attention(query, keys, values, mask=causal_mask(keys.shape[-2]),
                                         scale=True)
    """, "attention.masks.causal_mask"),
    ("causal_attention", """
        import numpy as np
        from attention import dot_product_attention

        def causal_attention(query, keys, values):
            mask = np.tril(np.ones((keys.shape[-2],) * 2, dtype=bool))
            return dot_product_attention(query, keys, values, mask=mask, scale=True)
    """, "attention.functional.dot_product_attention"),
    ("causal_attention", """
        import math

        import numpy as np
        from attention import softmax
        from attention.functional import _masked

        def causal_attention(query, keys, values):
            scores = query @ keys.swapaxes(-1, -2) / math.sqrt(keys.shape[-1])
            weights = softmax(_masked(scores, np.tri(keys.shape[-2], dtype=bool)))
            return weights @ values, weights
    """, "attention.functional._masked"),
])
def test_the_projects_own_versions_may_not_run(tmp_path, exercise, code, ran):
    message = failure(exercise, student_file(tmp_path, code))
    assert message.startswith(f"{exercise}: your ")
    assert f"runs {ran}" in message or f"opens {ran}" in message


def test_the_mistakes_differ_from_the_right_answer_on_the_first_case_they_fail():
    """Each known mistake is a wrong answer (else its diagnosis could never be reached)."""
    cases = attention_exercises.positions_cases()
    length, d_model = cases[0].arrays["x"].shape[-2:]
    right = mistakes.with_base(length, d_model, 10000.0)
    for mistake, _ in mistakes.TABLES:
        assert not mistakes.agrees(mistake(length, d_model), right), mistake.__name__
    large = attention_exercises.causal_cases()[3]
    texts = [text for text, (_, weights) in mistakes.causal_mistakes(large)
             if np.nanmax(np.abs(np.triu(np.nan_to_num(weights), k=1))) > 0.1]
    assert sum("-1e4" in text for text in texts) == 2          # both ways of -1e4 leak here


def test_the_base_is_read_off_a_wide_table_without_overflow(recwarn):
    """d_model 512: base^(2/d) is read as w = 1 / base^(2/512), and w^(-256) may overflow for a
    table that is no encoding at all; that is no base, and no warning."""
    x = np.zeros((1, 5, 512))
    case = attention_exercises.Case("wide", {"x": x})
    named = mistakes.positions_mistake(case, [x + mistakes.with_base(5, 512, 1000.0)])
    assert named == ["a known mistake: the wavelengths use the base 1000, not 10000: "
                     "pos / 10000^(2i/d_model)"]
    flat = np.zeros((1, 5, 512))
    flat[..., 1::2] = 1.0
    flat[0, 1, 2] = 1e-300                          # w = 1e-300: w^(-256) overflows
    assert mistakes.positions_mistake(case, [flat]) == []
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
