"""Under --lang ja a line is Japanese from end to end: the graders' reports of a cut graph and
of a copy made outside the graph, the training's progress within an epoch, the `wrote PATH`
lines of explore and draw. Each was English, or half English, before its words moved into the
catalogs (minigrad/messages, seq2seq/commands/messages). And a few Japanese texts written as the
rest are: 内積アテンション, a space on each side of a number."""

import io
import re

import pytest

from minigrad.grade import SolutionFailed, grade
from minigrad.language import Catalog, choose

from conftest import student_file
from test_coursework_diagnosis import WRONG_ROOT

GRU = """
    from minigrad import Tensor

    def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
        H = h.shape[-1]
        from_x = x @ weight_ih.T + bias_ih                          # (B, 3H)
        from_h = h @ weight_hh.T + bias_hh                          # (B, 3H)
        r = (from_x[:, :H] + from_h[:, :H]).sigmoid()
        z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()
        n = (from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()
        return (1 - z) * n + z * h
"""


def japanese_failure(tmp_path, old, new):
    choose("ja")
    with pytest.raises(SolutionFailed) as caught:
        grade("gru_cell", student_file(tmp_path, GRU.replace(old, new)))
    return str(caught.value).splitlines()


# ---- the graders ------------------------------------------------------------------------------

def test_a_cut_graph_is_reported_in_japanese_with_its_case_in_japanese(tmp_path):
    lines = japanese_failure(tmp_path, "r * from_h[:, 2 * H:]",
                             "r * Tensor(from_h.data)[:, 2 * H:]")
    assert lines[0].startswith("gru_cell: W_hn (weight_hh の行 10 から 14) に勾配が届いて"
                               "いません (ケース 1/4「例ひとつ」(")
    assert lines[0].endswith(")):")
    assert ", for " not in lines[0]


def test_a_copy_outside_the_graph_is_described_in_japanese(tmp_path):
    lines = japanese_failure(tmp_path, "r * from_h[:, 2 * H:]",
                             "r * Tensor(from_h.data)[:, 2 * H:]")
    assert lines[2] == ("  あなたのファイルの 10 行目で、計算グラフの外にある (1, 15) のテンソルを"
                        "作っています。ここから勾配は逆伝播しません。配列 (t.data) から新しく"
                        "作った Tensor です: テンソルそのもので計算してください")


def test_a_detached_copy_its_name_and_the_line_that_takes_it_in_are_said_in_japanese(tmp_path):
    lines = japanese_failure(tmp_path, "from_h[:, :H]).sigmoid()",
                             "from_h[:, :H]).sigmoid().detach()")
    assert lines[2] == ("  あなたのファイルの 8 行目で、計算グラフの外にある (1, 5) のテンソル r を"
                        "作っています。ここから勾配は逆伝播しません。.detach() が作った、計算"
                        "グラフから切り離されたコピーです: テンソルそのものを使ってください "
                        "(10 行目でそれを使っています)")


def test_a_copy_of_an_input_with_right_outputs_is_explained_in_japanese(tmp_path):
    lines = japanese_failure(tmp_path, "from_h = h @", "from_h = Tensor(h.data) @")
    assert "  出力は正しいので、入力から出力への経路がどこかで切れています:" in lines
    assert ("  あなたのファイルの 7 行目で、計算グラフの外にある (1, 5) のテンソルを作っています "
            "(h のコピー)。ここから勾配は逆伝播しません。配列 (t.data) から新しく作った Tensor "
            "です: テンソルそのもので計算してください") in lines


def test_a_wrong_backward_of_ones_own_op_is_pointed_at_in_japanese(tmp_path):
    choose("ja")
    path = student_file(tmp_path, WRONG_ROOT)
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm", path)
    assert ("(出力は正しいので、あなたの Root の backward を確かめてください。作られた行: あなたの"
            "ファイルの 18 行目: return centred / Root()(variance + eps) * weight + bias)"
            ) in str(caught.value)


# ---- training's progress within an epoch ------------------------------------------------------

def test_the_line_within_an_epoch_is_japanese(monkeypatch):
    from seq2seq.commands import progress
    clock = iter([0.0, 30.0])                       # at the start, then after one batch
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    choose("ja")
    stream = io.StringIO()
    line = progress.EpochLine(141, progress.epoch_name(1, 3), stream)
    line.n = 116
    line.set_postfix(loss="1.2679")
    line.update()
    assert stream.getvalue() == "エポック 1/3: 141 バッチ中 117 バッチ、30 秒、損失 1.2679\n"


def test_training_names_its_epochs_in_the_language_chosen(monkeypatch, tmp_path):
    from seq2seq.commands import epoch
    from seq2seq.commands.cli import main
    named = []
    monkeypatch.setattr(epoch, "epoch_progress",
                        lambda total, description, enabled: named.append(description))
    monkeypatch.chdir(tmp_path)
    assert main(["train", "--lang", "ja", "--task", "reverse", "--num-examples", "40",
                 "--embed-size", "4", "--hidden-size", "4", "--epochs", "2", "--out", "run"]) == 0
    assert named == ["エポック 1/2", "エポック 2/2"]


# ---- the pages and drawings written ------------------------------------------------------------

def test_minigrad_viz_says_what_it_wrote_in_japanese(tmp_path, capsys, monkeypatch):
    from minigrad.viz.__main__ import main
    assert main(["explore", "lstm-cell", "--lang", "ja", "--out", str(tmp_path / "c.html")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'c.html'} に書き出しました\n"
    monkeypatch.setenv("LANGUAGE", "ja")                # lstm-cell has no --lang: the locale's
    assert main(["lstm-cell", "--out", str(tmp_path / "c.svg")]) == 0
    assert capsys.readouterr().out == (f"{tmp_path / 'c.svg'} に書き出しました (DOT テキストは "
                                       f"{tmp_path / 'c.dot'})\n")
    assert main(["render", str(tmp_path / "c.dot"), "--out", str(tmp_path / "r.svg")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'r.svg'} に書き出しました\n"


def test_attention_explore_and_draw_say_what_they_wrote_in_japanese(tmp_path, capsys):
    from attention.__main__ import main
    assert main(["explore", "--lang", "ja", "--out", str(tmp_path / "a.html")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'a.html'} に書き出しました\n"
    choose("ja")
    assert main(["draw", "--out", str(tmp_path / "a.svg")]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'a.svg'} に書き出しました (DOT")


def test_seq2seq_explore_and_draw_say_what_they_wrote_in_japanese(tiny_run, tmp_path, capsys):
    from seq2seq.commands.cli import main
    assert main(["explore", str(tiny_run), "--lang", "ja", "--out", str(tmp_path / "s.html")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 's.html'} に書き出しました\n"
    assert main(["draw", str(tiny_run), "--lang", "ja", "--out", str(tmp_path / "s.svg")]) == 0
    assert capsys.readouterr().out == (f"{tmp_path / 's.svg'} に書き出しました (DOT テキストは "
                                       f"{tmp_path / 's.dot'})\n")


# ---- small fixes of the Japanese text ----------------------------------------------------------

def test_the_demo_announces_dot_product_attention_as_naiseki_attention(monkeypatch, tmp_path):
    """「内積アテンション」, the term for dot-product attention, not 'dot-product アテンション'."""
    from seq2seq.commands import demo, train

    class Stop(Exception):
        pass

    def stop(*args, **kwargs):
        raise Stop
    monkeypatch.setattr(train, "train", stop)
    said = []
    for lang in ("ja", "en"):
        choose(lang)
        with pytest.raises(Stop):
            demo._run_demo(tmp_path, demo.demo_config(tmp_path), 0, said.append)
    assert said == [
        "内積アテンション (注意機構) 付きの LSTM エンコーダ・デコーダを toy-ja-en で学習します "
        "(12,000 組のペア、6 エポック、双方向エンコーダ)",
        "training an LSTM encoder-decoder with dot-product attention on toy-ja-en (12,000 "
        "sentence pairs, 6 epochs, bidirectional encoder)"]


def test_a_number_in_a_japanese_message_stands_apart_from_the_words_around_it():
    """'各単語が 1 トークン', as every other message writes a number: a space on each side."""
    touching = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff][0-9]|[0-9][\u3040-\u30ff\u4e00-\u9fff]")
    for floor in ("minigrad.messages", "seq2seq.commands.messages"):
        texts = Catalog(floor).texts["ja"]
        assert [key for key, text in texts.items() if touching.search(text)] == [], floor
    from seq2seq.commands.progress import level_note
    choose("ja")
    assert level_note("char", None).endswith("にすると各単語が 1 トークンになります")
