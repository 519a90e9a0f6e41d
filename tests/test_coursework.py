"""The engine-level coursework graders (python -m minigrad.grade): the reference solutions pass,
deliberately wrong solutions fail with a message that names the wrong output or gradient and the
inputs, and the references agree with PyTorch."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from minigrad import Tensor
from minigrad.grade import EXERCISES, SolutionFailed, case_inputs, grade, grader
from minigrad.grade.expected import computed
from minigrad.grade.grader import Case, function_exercise
from minigrad.language import choose
from tests.reference import minigrad_reference as reference

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent


def failure(exercise, path):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


# ---- the reference passes ----------------------------------------------------------------------

@pytest.mark.parametrize("exercise", ["gru_cell", "layer_norm", "logsumexp", "layer_norm_op"])
def test_the_reference_file_passes_its_checker(tmp_path, exercise):
    path = student_file(tmp_path, Path(reference.__file__).read_text(encoding="utf-8"))
    report = grade(exercise, path)
    assert report.startswith(f"passed: {exercise}: ")
    assert f"{len(EXERCISES[exercise].cases())} cases" in report


def test_command_line_passes_the_reference_and_fails_a_wrong_file(tmp_path):
    good = student_file(tmp_path, Path(reference.__file__).read_text(encoding="utf-8"), "good.py")
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "layer_norm", str(good)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("passed: layer_norm")

    bad = student_file(tmp_path, """
        def layer_norm(x, weight, bias, eps=1e-5):
            return x * weight + bias
    """, "bad.py")
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "layer_norm", str(bad)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.startswith("failed: layer_norm: the output y is wrong for case 1 of 4")


@pytest.mark.parametrize("code, line", [
    ("import sys\nsys.exit(0)\n", 2),
    ("import sys\n\n\ndef layer_norm(x, weight, bias, eps=1e-5):\n    sys.exit(0)\n", 5),
])
def test_a_file_that_calls_sys_exit_fails_instead_of_passing_silently(tmp_path, code, line):
    path = student_file(tmp_path, code, "exits.py")
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "layer_norm", str(path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("failed: ")
    assert (f"your code called sys.exit(0), which would stop the grading (your file, line {line}: "
            "sys.exit(0))") in run.stderr


def test_a_directory_given_as_the_file_is_named_as_a_directory(tmp_path):
    assert failure("gru_cell", tmp_path) == f"{tmp_path} is a directory, not a .py file"


def test_a_fifo_given_as_the_file_is_named_for_what_it_is_not_as_missing(tmp_path):
    fifo = tmp_path / "solution.py"
    os.mkfifo(fifo)
    assert failure("gru_cell", fifo) == (f"{fifo} is not a regular file (a FIFO, a device or a "
                                         "socket): name a .py file")
    choose("ja")
    assert failure("gru_cell", fifo) == (f"{fifo} は通常のファイルではありません (FIFO、デバイス、"
                                         "ソケットなど)。.py ファイルを指定してください")


def test_importing_the_checker_imports_neither_attention_nor_seq2seq():
    code = ("import sys, minigrad.grade; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('attention', 'seq2seq')))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


# ---- wrong solutions: the message says what, where and by how much ---------------------------

def test_gru_with_the_update_gate_flipped_names_the_output_and_the_inputs(tmp_path):
    path = student_file(tmp_path, """
        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            H = h.shape[-1]
            from_x = x @ weight_ih.T + bias_ih
            from_h = h @ weight_hh.T + bias_hh
            r = (from_x[:, :H] + from_h[:, :H]).sigmoid()
            z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()
            n = (from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()
            return z * n + (1 - z) * h          # flipped: z should keep the old state
    """)
    message = failure("gru_cell", path)
    assert message.startswith("gru_cell: the output h_new is wrong for case 1 of 4, "
                              '"one example" (x (1, 4), h (1, 5), weight_ih (15, 4)')
    assert "yours " in message and "expected " in message and "off by " in message
    assert "case_inputs('gru_cell', 1)" in message


@pytest.mark.parametrize("candidate", [
    "(from_x[:, 2 * H:] + (r * h) @ weight_hh[2 * H:].T + bias_hh[2 * H:]).tanh()",   # 2014 paper
    "(from_x[:, 2 * H:] + r * (h @ weight_hh[2 * H:].T) + bias_hh[2 * H:]).tanh()",   # bias out
])
def test_gru_with_the_reset_gate_elsewhere_is_not_pytorchs_gru(tmp_path, candidate):
    """PyTorch's n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); the paper's r applied to h before
    the matmul, or r leaving out b_hn, are other functions."""
    path = student_file(tmp_path, f"""
        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            H = h.shape[-1]
            from_x = x @ weight_ih.T + bias_ih
            r = (from_x[:, :H] + h @ weight_hh[:H].T + bias_hh[:H]).sigmoid()
            z = (from_x[:, H:2 * H] + h @ weight_hh[H:2 * H].T + bias_hh[H:2 * H]).sigmoid()
            n = {candidate}
            return (1 - z) * n + z * h
    """)
    assert "the output h_new is wrong for case 1 of 4" in failure("gru_cell", path)


def test_logsumexp_whose_backward_forgets_grad_y_names_the_gradient(tmp_path):
    path = student_file(tmp_path, """
        import numpy as np
        from minigrad import Function

        class LogSumExp(Function):
            settings = ("axis", "keepdims")
            saves = ("softmax",)

            def __init__(self, axis=-1, keepdims=False):
                self.axis, self.keepdims = axis, keepdims

            def forward(self, x):
                peak = np.max(x, axis=self.axis, keepdims=True)
                y = peak + np.log(np.sum(np.exp(x - peak), axis=self.axis, keepdims=True))
                self.softmax = np.exp(x - y)
                return y if self.keepdims else np.squeeze(y, axis=self.axis)

            def backward(self, grad_y):
                return (self.softmax,)              # forgot: times grad_y

        def logsumexp(x, axis=-1, keepdims=False):
            return LogSumExp(axis, keepdims)(x)
    """)
    message = failure("logsumexp", path)
    assert message.startswith("logsumexp: the gradient with respect to x is wrong for case 1 "
                              'of 5, "rows, axis=-1" (x (3, 5))')
    assert "15 of 15 elements are off" in message


def test_logsumexp_without_the_max_shift_overflows_on_the_huge_case(tmp_path):
    path = student_file(tmp_path, """
        import numpy as np
        from minigrad import Function

        class LogSumExp(Function):
            settings = ("axis", "keepdims")
            saves = ("softmax",)

            def __init__(self, axis=-1, keepdims=False):
                self.axis, self.keepdims = axis, keepdims

            def forward(self, x):
                y = np.log(np.sum(np.exp(x), axis=self.axis, keepdims=True))
                self.softmax = np.exp(x) / np.exp(y)
                return y if self.keepdims else np.squeeze(y, axis=self.axis)

            def backward(self, grad_y):
                if not self.keepdims:
                    grad_y = np.expand_dims(grad_y, self.axis)
                return (grad_y * self.softmax,)

        def logsumexp(x, axis=-1, keepdims=False):
            return LogSumExp(axis, keepdims)(x)
    """)
    with np.errstate(over="ignore", invalid="ignore"):
        message = failure("logsumexp", path)
    assert message.startswith('logsumexp: the output y is wrong for case 5 of 5, "huge values')
    assert "is inf" in message


def test_logsumexp_made_of_primitive_ops_is_not_an_op_of_ones_own(tmp_path):
    path = student_file(tmp_path, """
        def logsumexp(x, axis=-1, keepdims=False):
            return x.exp().sum(axis=axis, keepdims=keepdims).log()
    """)
    message = failure("logsumexp", path)
    assert "should be made by your own op" in message and "made by Log" in message


def test_layer_norm_with_the_unbiased_variance_names_the_output(tmp_path):
    path = student_file(tmp_path, """
        def layer_norm(x, weight, bias, eps=1e-5):
            centred = x - x.mean(axis=-1, keepdims=True)
            variance = (centred ** 2).sum(axis=-1, keepdims=True) / (x.shape[-1] - 1)
            return centred / (variance + eps).sqrt() * weight + bias
    """)
    message = failure("layer_norm", path)
    assert message.startswith('layer_norm: the output y is wrong for case 1 of 4, "rows of 6" '
                              "(x (4, 6), weight (6,), bias (6,))")
    assert "24 of 24 elements are off" in message


def test_layer_norm_with_eps_outside_the_square_root_is_caught(tmp_path):
    path = student_file(tmp_path, """
        def layer_norm(x, weight, bias, eps=1e-5):
            centred = x - x.mean(axis=-1, keepdims=True)
            variance = (centred ** 2).mean(axis=-1, keepdims=True)
            return centred / (variance.sqrt() + eps) * weight + bias
    """)
    assert "layer_norm: the output y is wrong for case" in failure("layer_norm", path)


def test_layer_norm_computed_on_arrays_is_not_connected_to_the_graph(tmp_path):
    path = student_file(tmp_path, """
        import numpy as np
        from minigrad import Tensor

        def layer_norm(x, weight, bias, eps=1e-5):
            centred = x.data - x.data.mean(-1, keepdims=True)
            y = centred / np.sqrt((centred ** 2).mean(-1, keepdims=True) + eps)
            return Tensor(y * weight.data + bias.data)
    """)
    assert "the output y is not connected to the inputs" in failure("layer_norm", path)


def test_a_missing_keyword_names_the_case_that_passes_it(tmp_path):
    path = student_file(tmp_path, """
        def layer_norm(x, weight, bias):
            centred = x - x.mean(axis=-1, keepdims=True)
            variance = (centred ** 2).mean(axis=-1, keepdims=True)
            return centred / (variance + 1e-5).sqrt() * weight + bias
    """)
    message = failure("layer_norm", path)
    assert 'case 4 of 4, "eps=0.1"' in message and "unexpected keyword argument 'eps'" in message


def test_an_error_in_the_students_code_names_the_line(tmp_path):
    path = student_file(tmp_path, """
        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            return x @ weight_hh.T
    """)
    message = failure("gru_cell", path)
    assert "raised ValueError" in message
    assert "(your file, line 3: return x @ weight_hh.T)" in message


def test_a_file_that_does_not_parse_or_define_the_function(tmp_path):
    assert failure("gru_cell", student_file(tmp_path, "def gru_cell(x\n", "broken.py")) == (
        f"{tmp_path / 'broken.py'}, line 1: syntax error: '(' was never closed")
    empty = student_file(tmp_path, "GRU = None\n", "empty.py")
    assert failure("gru_cell", empty).startswith("gru_cell: your file defines no `gru_cell`")
    nowhere = tmp_path / "nowhere.py"
    assert failure("gru_cell", nowhere) == f"no such file: {nowhere}"


def test_gradcheck_catches_a_backward_that_a_wrong_reference_would_let_through(tmp_path):
    """Step 4 on its own: with the student's own (wrong) op as the reference, outputs and
    gradients agree, and finite differences still catch the backward."""
    path = student_file(tmp_path, """
        from minigrad import Function

        class Cube(Function):
            saves = ("x",)

            def forward(self, x):
                self.x = x
                return x ** 3

            def backward(self, grad_y):
                return (grad_y * 2 * self.x ** 2,)          # should be 3 x^2

        def cube(x):
            return Cube()(x)
    """)
    wrong = grader.load_solution(path)
    cases = lambda: [Case("three numbers", {"x": np.array([1.0, -2.0, 0.5])})]  # noqa: E731
    exercise = function_exercise("cube", "x ** 3", "cube", "cube(x)", computed(wrong.cube),
                                 cases, outputs=("y",))
    with pytest.raises(SolutionFailed) as caught:
        grader.grade({"cube": exercise}, "cube", path)
    message = str(caught.value)
    assert message.startswith("cube: your backward disagrees with finite differences for "
                              'case 1 of 1, "three numbers" (x (3,))')
    assert "input 0 ('x') of shape (3,), element (1,)" in message


def test_case_inputs_hand_back_the_numbers_a_failure_names():
    arrays, settings = case_inputs("layer_norm", 4)
    assert list(arrays) == ["x", "weight", "bias"] and settings == {"eps": 0.1}
    again, _ = case_inputs("layer_norm", 4)
    np.testing.assert_array_equal(arrays["x"], again["x"])          # fixed seeds
    with pytest.raises(ValueError, match="cases 1 to 4"):
        case_inputs("layer_norm", 5)


# ---- the references against PyTorch ----------------------------------------------------------

def test_reference_gru_cell_matches_torch_gru_cell_outputs_and_every_gradient():
    torch = pytest.importorskip("torch")
    arrays, _ = case_inputs("gru_cell", 2)
    cell = torch.nn.GRUCell(4, 5).double()
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(cell, name).copy_(torch.from_numpy(arrays[name]))
    x = torch.tensor(arrays["x"], requires_grad=True)
    h = torch.tensor(arrays["h"], requires_grad=True)
    upstream = np.random.default_rng(0).standard_normal((3, 5))
    (cell(x, h) * torch.from_numpy(upstream)).sum().backward()

    mine = {name: Tensor(a, requires_grad=True, name=name) for name, a in arrays.items()}
    h_new = reference.gru_cell(*mine.values())
    (h_new * Tensor(upstream)).sum().backward()
    np.testing.assert_allclose(h_new.data, cell(x, h).detach().numpy(), rtol=1e-12, atol=1e-12)
    theirs = {"x": x.grad, "h": h.grad, **{n: getattr(cell, n).grad for n in
                                           ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}}
    for name, grad in theirs.items():
        np.testing.assert_allclose(mine[name].grad, grad.numpy(), rtol=1e-10, atol=1e-12,
                                   err_msg=name)


@pytest.mark.parametrize("number", [1, 2, 3, 4])
@pytest.mark.parametrize("exercise", ["layer_norm", "layer_norm_op"])
def test_reference_layer_norm_matches_torch_layer_norm(exercise, number):
    """The composed reference and the one op, each against PyTorch's, every case and gradient."""
    torch = pytest.importorskip("torch")
    arrays, settings = case_inputs("layer_norm", number)
    eps = settings.get("eps", 1e-5)
    theirs = {n: torch.tensor(a, requires_grad=True) for n, a in arrays.items()}
    y_torch = torch.nn.functional.layer_norm(theirs["x"], theirs["x"].shape[-1:],
                                             theirs["weight"], theirs["bias"], eps)
    upstream = np.random.default_rng(number).standard_normal(y_torch.shape)
    (y_torch * torch.from_numpy(upstream)).sum().backward()
    mine = {n: Tensor(a, requires_grad=True) for n, a in arrays.items()}
    y = getattr(reference, exercise)(*mine.values(), **settings)
    (y * Tensor(upstream)).sum().backward()
    np.testing.assert_allclose(y.data, y_torch.detach().numpy(), rtol=1e-10, atol=1e-10)
    for name in arrays:
        np.testing.assert_allclose(mine[name].grad, theirs[name].grad.numpy(), rtol=1e-8,
                                   atol=1e-9, err_msg=name)


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_reference_logsumexp_matches_torch_logsumexp(number):
    torch = pytest.importorskip("torch")
    arrays, settings = case_inputs("logsumexp", number)
    axis, keepdims = settings.get("axis", -1), settings.get("keepdims", False)
    x_torch = torch.tensor(arrays["x"], requires_grad=True)
    y_torch = torch.logsumexp(x_torch, dim=axis, keepdim=keepdims)
    upstream = np.random.default_rng(number).standard_normal(y_torch.shape)
    (y_torch * torch.from_numpy(upstream)).sum().backward()
    x = Tensor(arrays["x"], requires_grad=True)
    y = reference.logsumexp(x, **settings)
    (y * Tensor(upstream)).sum().backward()
    assert y.shape == tuple(y_torch.shape)
    np.testing.assert_allclose(y.data, y_torch.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad, x_torch.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_reference_logsumexp_is_one_op_and_passes_gradcheck():
    x = Tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    y = reference.logsumexp(x, axis=0)
    assert isinstance(y.creator, reference.LogSumExp) and y.creator.inputs == [x]
    assert minigrad.gradcheck(lambda x: reference.logsumexp(x, axis=0), x)


def test_a_fix_saved_within_the_same_second_is_graded_not_the_cached_old_code(tmp_path,
                                                                              monkeypatch):
    """A .pyc is trusted when the source's size and mtime (in whole seconds) match: the fixed
    GRU below has the same length as the wrong one, and the same mtime."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    wrong = Path(reference.__file__).read_text(encoding="utf-8").replace(
        "(1 - z) * n + z * h", "z * n + (1 - z) * h")
    path = student_file(tmp_path, wrong)
    assert "the output h_new is wrong" in failure("gru_cell", path)
    stamp = path.stat().st_mtime_ns
    path.write_text(wrong.replace("z * n + (1 - z) * h", "(1 - z) * n + z * h"), encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))
    assert grade("gru_cell", path).startswith("passed: gru_cell")
