"""minigrad's remaining messages under --lang ja: a missing folder, a value too large to show,
the drawings' and the explorer's errors, and the explore pages' language when --lang is not
written. Each Japanese line is checked whole, and the English one beside it is unchanged."""

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from minigrad.files import no_directory
from minigrad.language import choose
from minigrad.optim.lr_scheduler import _shown
from minigrad.settings import SettingError, check_number
from minigrad.viz import fonts
from minigrad.viz.explorer.words import check_lang

ROOT = Path(__file__).resolve().parents[1]


def run(*argv, cwd, env=None):
    """A command in a new process; its stderr."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    done = subprocess.run([sys.executable, *argv], cwd=cwd, env=environ, capture_output=True,
                          text=True, check=False, timeout=120)
    return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""


def test_a_missing_folder_is_said_in_japanese_and_in_the_same_english():
    choose("ja")
    assert str(no_directory("nodir/x.pt", verb="save to")) == (
        "'nodir/x.pt' に保存できません: フォルダ 'nodir' がありません (先に作ってください: "
        "mkdir -p nodir)")
    choose("en")
    assert str(no_directory("nodir/x.pt", verb="save to")) == (
        "cannot save to 'nodir/x.pt': no directory 'nodir' (create it first: mkdir -p nodir)")


def test_an_int_too_large_to_show_is_said_in_japanese():
    choose("ja")
    with pytest.raises(SettingError, match="1025 ビットの整数"):
        check_number("lr", 2 ** 1024, low=0)
    assert _shown(2 ** 200) == "201 ビットの整数"
    choose("en")
    assert _shown(2 ** 200) == "an int of 201 bits"


def test_the_explorer_language_check_and_the_font_warning_speak_japanese(monkeypatch):
    choose("ja")
    with pytest.raises(ValueError) as refused:
        check_lang("fr")
    assert str(refused.value) == ("explore: lang には 'en', 'ja' のどれかを指定してください "
                                  "(指定された値: 'fr')")
    monkeypatch.setattr(fonts, "font_path", lambda: None)
    monkeypatch.setattr(fonts, "_warned", set())
    monkeypatch.setattr(sys, "platform", "linux")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        fonts.warn_if_missing("隠れ状態", "png")
    assert str(said[0].message).startswith("システムのフォントが持っていなければ、Graphviz は")
    choose("en")
    with pytest.raises(ValueError, match=r"^explore: lang must be one of 'en', 'ja', not 'fr'$"):
        check_lang("fr")


@pytest.mark.parametrize("argv, japanese, english", [
    (["lstm-cell", "--out", "nodir/x.svg"],
     "エラー: 'nodir/x.svg' に書き出せません: フォルダ 'nodir' がありません (先に作ってください: "
     "mkdir -p nodir)",
     "error: cannot write 'nodir/x.svg': no directory 'nodir' (create it first: mkdir -p nodir)"),
    (["lstm-cell", "--out", "x.txt"],
     "エラー: x.txt は描けません: .txt は Graphviz が書き出す形式ではありません (.svg、.png、.pdf、"
     ".dot など)",
     "error: cannot draw x.txt: .txt is not a format Graphviz writes (.svg, .png, .pdf, .dot, "
     "...)"),
    (["explore", "lstm-cell", "--out", "y.txt"],
     "エラー: y.txt: エクスプローラが書き出すのは HTML ページです。.html で終わる名前を指定して"
     "ください",
     "error: y.txt: the explorer writes an HTML page; give it a name ending in .html"),
    (["lstm-cell", "--hidden-size", "0"],
     "エラー: --hidden-size には 1 以上を指定してください (python -m minigrad.viz --help を参照"
     "してください)",
     "error: --hidden-size must be at least 1 (see python -m minigrad.viz --help)"),
    (["explore", "lstm-cell", "--seed", "-1", "--out", "e.html"],
     "エラー: --seed には 0 以上を指定してください (指定された値: -1) (python -m minigrad.viz "
     "--help を参照してください)",
     "error: --seed must be 0 or more, not -1 (see python -m minigrad.viz --help)"),
])
def test_the_viz_commands_errors_in_japanese_and_english(tmp_path, argv, japanese, english):
    assert run("-m", "minigrad.viz", *argv, "--lang", "ja", cwd=tmp_path) == japanese
    assert run("-m", "minigrad.viz", "--lang", "ja", *argv, cwd=tmp_path) == japanese
    assert run("-m", "minigrad.viz", *argv, cwd=tmp_path) == english


@pytest.mark.slow
@pytest.mark.parametrize("command", [["minigrad.viz", "explore", "lstm-cell"],
                                     ["attention", "explore"]])
def test_an_explore_page_speaks_the_locales_language_when_lang_is_not_written(tmp_path,
                                                                            command):
    japanese = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP.UTF-8"}
    run("-m", *command, "--out", "ja.html", cwd=tmp_path, env=japanese)
    run("-m", *command, "--out", "en.html", cwd=tmp_path, env={**japanese, "LANGUAGE": "en"})
    assert '<html lang="ja"' in (tmp_path / "ja.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in (tmp_path / "en.html").read_text(encoding="utf-8")



def test_a_refused_checkpoint_member_is_said_in_japanese(tmp_path):
    import zipfile

    import numpy as np

    from minigrad.npz_reader import NpzRefused, read_member, size
    path = str(tmp_path / "pickled.npz")
    np.savez(path, data=np.array([object()], dtype=object))

    def refusal():
        with zipfile.ZipFile(path) as archive, pytest.raises(NpzRefused) as refused:
            read_member(archive, "data.npy", path, "biufc", 1000, "1000 bytes")
        return str(refused.value)
    choose("ja")
    assert refusal() == (f"{path!r} のメンバー 'data.npy' には pickle のデータがあり、これは決して"
                         "読み込みません (拒否しました。中身は何も実行していません)")
    assert size(12) == "12 バイト"
    choose("en")
    assert refusal() == (f"{path!r} holds pickled data in 'data.npy', which is never loaded "
                         "(refused; nothing in it was run)")
    assert size(12) == "12 bytes"


def test_a_file_that_is_no_checkpoint_is_said_in_japanese(tmp_path):
    import numpy as np

    from minigrad.checkpoint import CheckpointError, load
    path = str(tmp_path / "plain.npz")
    np.savez(path, x=np.zeros(2))

    def refusal():
        with pytest.raises(CheckpointError) as refused:
            load(path)
        return str(refused.value)
    choose("ja")
    assert refusal() == (f"{path!r} は minigrad のチェックポイントではありません (メタデータのない "
                         ".npz アーカイブです。np.savez で書いたものなど)")
    choose("en")
    assert refusal() == (f"{path!r} is not a minigrad checkpoint (an .npz archive without "
                         "metadata, e.g. written by np.savez)")


def test_the_graders_cases_are_named_in_japanese():
    from minigrad.grade.exercises import gru_cases, layer_norm_cases, logsumexp_cases
    choose("ja")
    assert [case.label for case in gru_cases()] == [
        "例ひとつ", "例 3 個のバッチ", "最初のステップ: h = 0", "大きな重み: 飽和したゲート"]
    assert layer_norm_cases()[3].label == "eps=0.1 の場合"
    choose("en")
    assert [case.label for case in logsumexp_cases()] == [
        "rows, axis=-1", "columns, axis=0", "keepdims=True, axis=1", "one vector (a 0-d output)",
        "huge values (exp overflows)"]


def test_a_file_that_cannot_be_written_is_said_in_japanese(tmp_path):
    from minigrad.files import atomic_write

    (tmp_path / "afile").write_text("not a folder")
    path = tmp_path / "afile" / "x.txt"

    def refusal():
        with pytest.raises(OSError) as refused:
            atomic_write(path, lambda file: file.write("x"), text=True)
        return str(refused.value)
    choose("ja")
    assert refusal().startswith(f"{str(path)!r} に書き出せません: ")
    choose("en")
    assert refusal().startswith(f"cannot write {str(path)!r}: ")


def test_no_graphviz_to_render_with_is_said_in_japanese(monkeypatch):
    import importlib
    render = importlib.import_module("minigrad.viz.render")     # not the function viz.render
    monkeypatch.setattr(render, "available_engines", list)

    def refusal():
        with pytest.raises(render.RenderError) as refused:
            render.choose_engine("auto")
        return str(refused.value)
    choose("ja")
    assert refusal().startswith("描画に使える Graphviz がありません: `dot` プログラムも "
                                "pygraphviz パッケージも見つかりませんでした。どちらかを"
                                "インストールしてください: `pip install pygraphviz`")
    choose("en")
    assert refusal() == ("no Graphviz to render with: neither the `dot` program nor the "
                         "pygraphviz package was found; install one: `pip install pygraphviz` "
                         "(its wheels bundle Graphviz on Linux, macOS and Windows x86-64), or "
                         "the Graphviz package of your system (apt install graphviz, brew "
                         "install graphviz, winget install graphviz)")


def test_a_file_to_render_without_a_suffix_is_said_in_japanese(tmp_path):
    (tmp_path / "ok.dot").write_text("digraph { a -> b }")
    argv = ["-m", "minigrad.viz", "render", "ok.dot", "--out", "c"]
    assert run(*argv, "--lang", "ja", cwd=tmp_path) == (      # a command line has no format=
        "エラー: c は描けません: 拡張子がありません。--out の名前を形式の拡張子 (.svg、.png、.pdf、"
        ".dot) で終えてください")
    assert run(*argv, cwd=tmp_path) == (
        "error: cannot draw c: it has no suffix; end --out with the format's: .svg, .png, .pdf "
        "or .dot")


# ---- a recurrent layer that breaks the contract (minigrad.nn.recurrent) ---------------------

def test_a_layer_that_breaks_the_recurrent_contract_is_told_so_in_japanese():
    from minigrad.nn.recurrent import RecurrentLayerError, check_recurrent
    from tests.test_recurrent import NoMask, Raises, TupleWithoutParts

    said = {}
    for lang in ("ja", "en"):
        choose(lang)
        for layer in (NoMask, TupleWithoutParts, Raises):
            with pytest.raises(RecurrentLayerError) as error:
                check_recurrent(layer(3, 4), 3, 4)
            said[lang, layer.__name__] = str(error.value)
    assert said["ja", "NoMask"] == (
        "NoMask: forward がマスクを受け取りませんが、エンコーダはパディングしたバッチを読みます。"
        "forward(x, state=None, mask=None) と書くか、forward がマスクを受け取る nn.Recurrent を"
        "継承してください")
    assert said["ja", "TupleWithoutParts"] == (
        "TupleWithoutParts: cell が返した状態は 要素 2 個の tuple ですが、state_parts ('h',) "
        "によればテンソルひとつのはずです")
    assert said["ja", "Raises"].startswith(
        "Raises: cell(x, state) で KeyError が発生しました: 'weight_xx' (test_recurrent.py の ")
    assert said["ja", "Raises"].endswith(" 行目)")
    assert said["en", "NoMask"] == (
        "NoMask: forward takes no mask, but the encoder reads padded batches: write forward(x, "
        "state=None, mask=None), or subclass nn.Recurrent, whose forward takes one")
    assert said["en", "TupleWithoutParts"] == (
        "TupleWithoutParts: cell returned a state that is a tuple of 2, but state_parts ('h',) "
        "make it one tensor")


def test_a_cell_that_goes_wrong_at_a_step_is_named_in_japanese():
    from minigrad.nn.recurrent import RecurrentLayerError
    from tests.test_recurrent_steps import Shrinks, sequence

    choose("ja")
    layer = Shrinks(3, 4)
    layer.broken_at = 3
    with pytest.raises(RecurrentLayerError) as raised:
        layer(sequence())
    assert str(raised.value) == (
        "Shrinks: 時刻 3 のステップで、cell(x, state) が h (2, 3) float32 を返しましたが、渡された"
        "状態の h は (2, 4) float32 です。各ステップは状態の形状 (batch, hidden_size) と dtype を"
        "保ちます")


def test_train_with_a_layer_that_breaks_the_contract_ends_in_one_japanese_line(tmp_path):
    layer = tmp_path / "my_rnn.py"
    layer.write_text("from tests.test_recurrent import NoMask\n", encoding="utf-8")
    line = run("-m", "seq2seq", "--lang", "ja", "train", "--task", "reverse", "--num-examples",
               "40", "--epochs", "1", "--rnn", f"{layer}:NoMask", "--out", str(tmp_path / "run"),
               cwd=ROOT)
    assert "NoMask: forward がマスクを受け取りませんが" in line, line
    assert not (tmp_path / "run").exists()


# ---- a file to read that is not a regular one; a scope that is not there --------------------

def test_a_folder_or_fifo_given_as_a_pairs_file_or_checkpoint_is_refused_in_japanese(tmp_path):
    folder, fifo = tmp_path / "pairs", tmp_path / "fifo.tsv"
    folder.mkdir()
    os.mkfifo(fifo)
    (tmp_path / "run" / "checkpoint.npz").mkdir(parents=True)
    train = ["-m", "seq2seq", "--lang", "ja", "train", "--epochs", "1", "--out",
             str(tmp_path / "out"), "--task"]
    assert run(*train, str(folder), cwd=ROOT) == (
        f"エラー: '{folder}' はペアファイルではありません (フォルダで、通常のファイルではありま"
        "せん。何も読まずに拒否しました)")
    assert run(*train, str(fifo), cwd=ROOT) == (
        f"エラー: '{fifo}' はペアファイルではありません (FIFO で、通常のファイルではありません。"
        "何も読まずに拒否しました)")
    assert run("-m", "seq2seq", "--lang", "ja", "evaluate", str(tmp_path / "run"), cwd=ROOT) == (
        f"エラー: '{tmp_path / 'run' / 'checkpoint.npz'}' はチェックポイントではありません ("
        "フォルダで、通常のファイルではありません。何も読まずに拒否しました)")
    assert run(*train[:3], "en", *train[4:], str(fifo), cwd=ROOT) == (
        f"error: '{fifo}' is not a pairs file (a FIFO, not a regular file; refused, nothing read)")
    assert not (tmp_path / "out").exists()


def test_a_scope_that_is_not_in_the_graph_is_named_in_japanese():
    from minigrad import Tensor
    from minigrad.viz import explore

    x = Tensor([1.0, 2.0], requires_grad=True)
    said = {}
    for lang in ("ja", "en"):
        choose(lang)
        with pytest.raises(SettingError) as error:
            explore((x * x).sum(), collapse=["sofmax"])
        said[lang] = str(error.value)
    assert said["ja"] == ("explore: collapse に指定された 'sofmax' は、このグラフのスコープでは"
                          "ありません。このグラフのスコープ: なし")
    assert said["en"] == "explore: collapse names no scope 'sofmax' of this graph; its scopes: none"


# ---- an op a person wrote, and what the grader quotes of it (minigrad.op_errors) -------------

def test_an_ops_wrong_gradient_shape_is_said_in_japanese_and_the_same_english():
    from minigrad import Function, Tensor

    class Unsummed(Function):
        def forward(self, a, b):
            return a + b

        def backward(self, grad_y):
            return grad_y, grad_y                   # b was broadcast: its gradient is unsummed

    said = {}
    for lang in ("ja", "en"):
        choose(lang)
        y = Unsummed()(Tensor(np.ones((2, 3)), requires_grad=True),
                       Tensor(np.ones(3), requires_grad=True))
        with pytest.raises(ValueError) as error:
            y.sum().backward()
        said[lang] = str(error.value)
    assert said["ja"] == (
        "Unsummed().backward が入力 1 に返した勾配の形状は (2, 3) ですが、その入力の形状は (3,) "
        "です。入力はブロードキャストされていました。ブロードキャストされた軸に沿って勾配の和を"
        "とってください (minigrad.ops.arithmetic.unbroadcast(grad, shape))")
    assert said["en"] == (
        "Unsummed().backward returned a gradient of shape (2, 3) for input 1, which has shape "
        "(3,); the input was broadcast: sum the gradient over the broadcast axes "
        "(minigrad.ops.arithmetic.unbroadcast(grad, shape))")


def test_a_grader_verdict_quotes_a_wrong_backward_in_japanese(tmp_path):
    from minigrad.grade import SolutionFailed, grade
    from tests.reference import minigrad_reference as reference

    source = Path(reference.__file__).read_text(encoding="utf-8")
    solution = tmp_path / "logsumexp_op.py"
    wrong = "        return (grad_y * self.softmax,)"
    assert wrong in source
    solution.write_text(source.replace(wrong, "        return (grad_y,)"), encoding="utf-8")
    choose("ja")
    with pytest.raises(SolutionFailed) as failed:
        grade("logsumexp", solution)
    said = str(failed.value)
    assert (".backward が入力 0 に返した勾配の形状は (3, 1) ですが、その入力の形状は (3, 5) "
            "です") in said
    assert "backward returned" not in said


def test_the_engines_own_demo_speaks_japanese_under_lang_ja(capsys):
    from minigrad.__main__ import main

    assert main(["demo", "--steps", "0", "--lang", "ja"]) in (0, None)
    assert capsys.readouterr().out.splitlines() == [
        "gradcheck: softmax(keys @ q) @ keys  -> 逆伝播の勾配と有限差分の勾配が一致しました",
        "ステップ    0  損失 0.8076  正解率 52.0%"]


def test_render_refuses_a_fifo_a_device_and_an_empty_file_at_once(tmp_path):
    """A FIFO nobody writes to would block the command for ever; /dev/null drew an empty
    picture and said it wrote it."""
    fifo, empty = tmp_path / "graph.dot", tmp_path / "empty.dot"
    os.mkfifo(fifo)
    empty.write_text(" \n", encoding="utf-8")
    render = ["-m", "minigrad.viz", "--lang", "ja", "render"]
    out = str(tmp_path / "g.svg")
    assert run(*render, str(fifo), "--out", out, cwd=tmp_path) == (
        f"エラー: '{fifo}' は DOT ファイルではありません (FIFO で、通常のファイルではありません。"
        "何も読まずに拒否しました)")
    assert run(*render, str(empty), "--out", out, cwd=tmp_path) == (
        f"エラー: {empty} は空です。描くグラフが入っていません")
    assert run(*render[:3], "en", "render", "/dev/null", "--out", out, cwd=tmp_path) == (
        "error: '/dev/null' is not a DOT file (a device, not a regular file; refused, nothing "
        "read)")
    assert not (tmp_path / "g.svg").exists()
