"""The graders' lines under --lang ja (or a Japanese locale) are Japanese from end to end: the
guard's refusals, the results file's errors, a backward derived numerically, the known
mistakes of layer normalisation, the stored values' errors. Each was English before its
words moved into minigrad's catalogue; the English lines are unchanged."""

import re

import pytest

from minigrad.grade import SolutionFailed, grade
from minigrad.grade.exercises import EXERCISES
from minigrad.grade.grader import main as grade_main
from minigrad.grade.refusals import FAILURES, reason, refusal_text
from minigrad.language import choose
from minigrad.messages import message

from conftest import honest_layer_norm_file, student_file

ENGLISH_WORDS = re.compile(r"\b(your|the|while|is|was|it|of|to|by|and|or)\b")


def english(text):
    """The English words of `text`, paths left out."""
    return ENGLISH_WORDS.findall(re.sub(r"\S*/\S*", "", text))


def failure(path, exercise="layer_norm", lang="ja"):
    choose(lang)
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


# ---- the guard's refusals -------------------------------------------------------------------

OPENS_EXPECTED = """
    from pathlib import Path
    import minigrad.grade

    open(Path(minigrad.grade.__file__).with_name("expected.npz"), "rb")
"""


def test_a_refusal_to_open_the_expected_values_is_one_japanese_line(tmp_path, capsys):
    path = honest_layer_norm_file(tmp_path, OPENS_EXPECTED)
    assert grade_main(EXERCISES, "python -m minigrad.grade",
                      ["--lang", "ja", "layer_norm", str(path)]) == 1
    assert capsys.readouterr().err == (
        "不合格: layer_norm: 採点中のあなたのコードが、採点プログラムの期待値 (expected.npz) を"
        "開こうとしました。これはこの課題の答えです。import したり読み込んだりすれば、何を書いても"
        "合格してしまいます。自分で書いてください: 答えを読むのはかまいませんが、実行してはいけま"
        "せん。\n")
    assert failure(path, lang="en") == (
        "layer_norm: your code opens the grader's expected values (expected.npz), an answer to "
        "this exercise, while it is graded: importing or reading it would pass whatever you "
        "wrote. Write it yourself: reading the answer is allowed, running it is not.")


def test_a_write_outside_the_temporary_folder_is_refused_in_japanese(tmp_path):
    target = tmp_path / "elsewhere" / "out.txt"
    target.parent.mkdir()
    path = honest_layer_norm_file(tmp_path, f"open({str(target)!r}, 'w')\n")
    text = failure(path)
    assert text.startswith(f"layer_norm: 採点中のあなたのコードが、{target} に書き込もうと"
                           "しました。採点中のコードがファイルを書けるのは、自分専用の一時"
                           "フォルダ (")
    assert not english(text), text
    assert failure(path, lang="en").startswith(f"layer_norm: your code writes to {target} while "
                                               "it is graded: it may write files in its own")


def test_a_process_started_while_graded_is_refused_in_japanese_as_is_its_error(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import subprocess
        try:
            subprocess.run(["true"])
        except PermissionError as error:
            print(error)
    """)
    assert failure(path) == (
        "layer_norm: 採点中のあなたのコードが、別のプロセスを起動しようとしました "
        "(subprocess.Popen)。これでは、この課題の答えを実行しているかどうかが採点プログラム"
        "から見えなくなります。自分で書いてください: 答えを読むのはかまいませんが、実行しては"
        "いけません。")
    choose("ja")
    assert message("refusal.refused", why=reason("process", event="os.fork")) == (
        "採点プログラムが拒否しました: 別のプロセスを起動しようとしました (os.fork)")
    choose("en")
    assert message("refusal.refused", why=reason("process", event="os.fork")) == (
        "the grader refuses this: starts another process (os.fork)")


REASONS = {"opens": {"what": "x", "file": "f.py"}, "opens_process": {"path": "/proc/1/mem"},
           "writes": {"path": "/a"}, "writes_by_folder": {"path": "/a"},
           "reads_git": {"path": "/a/.git/b"}, "reads_outside": {"path": "/b"},
           "path_object": {"type": "P", "event": "open"}, "replaces": {"name": "os.stat"},
           "torch_past_finder": {}, "torch_unchecked": {"function": "torch.save"},
           "torch_not_module": {"type": "Fake"}, "torch_lacks": {"name": "save"},
           "signal": {"event": "os.kill"}, "process": {"event": "os.fork"},
           "objects": {"event": "gc.get_objects"}, "interpreter": {},
           "profile": {"event": "sys.settrace"}, "code": {"function": "f"},
           "changes": {"module": "minigrad.grade.answers", "name": "watching"}}


@pytest.mark.parametrize("kind", sorted(REASONS))
def test_every_reason_and_its_failure_line_are_japanese(kind):
    choose("ja")
    why = reason(kind, **REASONS[kind])
    text = refusal_text({"name": "gru_cell"}, why)
    assert text.startswith(f"gru_cell: 採点中のあなたのコードが、{why}。"), text
    assert not english(text), text
    assert text.endswith("。")
    assert refusal_text({"name": "gru_cell"}, (kind, REASONS[kind])) == text
    choose("en")
    assert refusal_text({"name": "gru_cell"}, reason(kind, **REASONS[kind])).startswith(
        f"gru_cell: your code {reason(kind, **REASONS[kind])}")


def test_every_failure_line_has_a_reason_of_its_kind():
    assert set(FAILURES) <= set(REASONS)


# ---- what the graded code's process gave back ---------------------------------------------

def test_a_process_that_ends_before_its_results_is_said_in_japanese(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import os
        import sys

        print("bye", file=sys.stderr)
        os._exit(3)
    """)
    assert failure(path) == ("layer_norm: あなたのコードのプロセスは、結果を返す前に終了しました "
                             "(終了ステータス 3)。stderr の最後: bye。os._exit を呼んだか、"
                             "クラッシュしたのでしょうか")
    assert failure(path, lang="en") == (
        "layer_norm: your code's process ended (exit status 3) before it gave back its results; "
        "its stderr ended with: bye (os._exit? a crash?)")


ON_ARRAYS = """
    import numpy as np
    from minigrad import Tensor

    def layer_norm(x, weight, bias, eps=1e-5):
        centred = x.data - x.data.mean(-1, keepdims=True)
        y = centred / np.sqrt((centred ** 2).mean(-1, keepdims=True) + eps)
        return Tensor(y * weight.data + bias.data)
"""

RAISING_BACKWARD = """
    from minigrad import Function

    class Same(Function):
        def forward(self, x):
            return x

        def backward(self, grad_y):
            raise ValueError("not yet")

    def layer_norm(x, weight, bias, eps=1e-5):
        centred = x - x.mean(axis=-1, keepdims=True)
        variance = (centred ** 2).mean(axis=-1, keepdims=True)
        return Same()(centred / (variance + eps).sqrt() * weight + bias)
"""
CASE = "ケース 1/4「長さ 6 の行」(x (4, 6), weight (6,), bias (6,))"


def test_an_output_cut_from_its_inputs_is_said_in_japanese(tmp_path):
    path = student_file(tmp_path, ON_ARRAYS)
    assert failure(path).splitlines()[0] == (
        f"layer_norm: 出力 y が入力とつながっていません (requires_grad が False です) ({CASE}): "
        ".data や NumPy ではなく、テンソルの演算で計算してください")
    assert failure(path, lang="en").splitlines()[0] == (
        'layer_norm: the output y is not connected to the inputs (it does not require grad) for '
        'case 1 of 4, "rows of 6" (x (4, 6), weight (6,), bias (6,)): compute it with tensor '
        "operations, not on .data or with NumPy")


def test_a_backward_that_raises_is_said_in_japanese(tmp_path):
    path = student_file(tmp_path, RAISING_BACKWARD)
    assert failure(path).splitlines()[0] == (
        f"layer_norm: あなたの layer_norm を通して逆伝播すると例外が起きました ({CASE}): "
        "ValueError: not yet (あなたのファイルの 9 行目: raise ValueError(\"not yet\"))")
    assert failure(path, lang="en").splitlines()[0] == (
        "layer_norm: backward through your layer_norm raised ValueError: not yet (your file, "
        'line 9: raise ValueError("not yet")), for case 1 of 4, "rows of 6" (x (4, 6), weight '
        "(6,), bias (6,))")


def test_a_numerical_backward_is_said_in_japanese(tmp_path):
    from test_coursework_project_pieces import CENTRAL_DIFFERENCES, logsumexp_file

    path = logsumexp_file(tmp_path, CENTRAL_DIFFERENCES.replace("def differences",
                                                                "def backward"))
    text = failure(path, "logsumexp")
    assert text.startswith("logsumexp: あなたの backward が forward (LogSumExp.forward) を"
                           "もう一度実行しています (ケース 1/5「行ごと、axis=-1」(x (3, 5))): "
                           "これは数値微分です (有限差分であり、手で導いた導関数ではありません)。"
                           "dL/dx を紙の上で導き、forward が self に保存したものから、NumPy で "
                           "backward に書いてください。"), text
    assert failure(path, "logsumexp", lang="en").startswith(
        "logsumexp: your backward runs your forward (LogSumExp.forward) again, for case 1 of 5, "
        "\"rows, axis=-1\" (x (3, 5)): that is a numerical derivative (finite differences, not "
        "a derivative derived by hand). Derive dL/dx on paper")


def test_damaged_expected_values_and_a_case_out_of_range_are_said_in_japanese(tmp_path):
    from minigrad.grade import case_inputs
    from minigrad.grade.expected import DamagedExpected, stored

    damaged = tmp_path / "expected.npz"
    damaged.write_bytes(b"not a zip")
    choose("ja")
    with pytest.raises(DamagedExpected) as caught:
        stored(damaged, "layer_norm")(EXERCISES["layer_norm"].cases(), ("y",), [])
    assert str(caught.value).startswith(f"採点プログラムの期待値を {damaged} から読めません: ")
    with pytest.raises(ValueError, match=r"^layer_norm のケースは 1 から 4 までです \(9 は"):
        case_inputs("layer_norm", 9)
    choose("en")
    with pytest.raises(ValueError, match=r"^layer_norm has cases 1 to 4, not 9$"):
        case_inputs("layer_norm", 9)


# ---- the known mistakes of layer_norm_op, and a wrong gradient's whole line -------------------

def test_a_known_mistake_of_layer_norm_op_is_named_in_japanese(tmp_path):
    from test_coursework_layer_norm_op import GRAD_X, op_with

    path = op_with(tmp_path, GRAD_X, "grad_x = g * self.inv_sigma")
    lines = failure(path, "layer_norm_op").splitlines()
    assert lines[0].startswith("layer_norm_op: x に関する勾配が間違っています (ケース 1/4"), lines
    assert lines[3] == ("  あなたの dL/dx は g / sigma です (g = dL/dy * weight): 平均と分散を定数"
                        "として扱っていますが、どちらも行のすべての x_i に依存するので、- mean(g) "
                        "と - xhat * mean(g * xhat) の項が加わります: dL/dx = (g - mean(g) - "
                        "xhat * mean(g * xhat)) / sigma")
    path = op_with(tmp_path, "grad_bias = grad_y.sum(axis=leading)",
                   "grad_bias = grad_y.sum(axis=leading, keepdims=True)")
    assert failure(path, "layer_norm_op").splitlines()[1] == (
        "  dL/dbias の形は (1, 6) です: 行について合計していますが、その軸が残っています "
        "(keepdims): bias は (6,) なので、その勾配も (6,) です")


def test_a_wrong_gradient_reads_without_a_stray_space_and_a_wrong_output_keeps_its_own(tmp_path):
    from test_coursework_diagnosis import WRONG_ROOT

    path = student_file(tmp_path, WRONG_ROOT)
    first = failure(path).splitlines()[0]
    assert first == f"layer_norm: x に関する勾配が間違っています ({CASE}):", first
    assert failure(path, lang="en").splitlines()[0] == (
        'layer_norm: the gradient with respect to x is wrong for case 1 of 4, "rows of 6" '
        "(x (4, 6), weight (6,), bias (6,)):")
    path = student_file(tmp_path, WRONG_ROOT.replace("return", "return 2 *", 1))
    assert failure(path).splitlines()[0].startswith("layer_norm: 出力 y が間違っています (")
