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

from conftest import honest_layer_norm_file

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
        "合格してしまいます。自分で書いてください: 答えを読むのは構いませんが、実行してはいけま"
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
        "から見えなくなります。自分で書いてください: 答えを読むのは構いませんが、実行しては"
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
