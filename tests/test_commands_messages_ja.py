"""The seq2seq commands' own lines in Japanese under --lang ja, and in the same English as ever
without it: the settings' errors, a training that diverges, evaluate's table and notes, a text
translate refuses, a checkpoint's wrong entries, a layer file's errors. Each group is checked
once in each language, through the command where a small run makes that quick."""

import math
import shutil
import types

import pytest

from minigrad.language import choose
from minigrad.settings import SettingError
from seq2seq.commands import sizes
from seq2seq.commands.checkpoint_reading import WIDEST
from seq2seq.commands.cli import main
from seq2seq.commands.epoch import _diverged
from seq2seq.commands.lock_file import LOCK, busy
from seq2seq.commands.messages import message
from seq2seq.commands.settings import check_settings
from seq2seq.models.block_contract import BlockContractError, check_block
from seq2seq.models.recurrent import RecurrentLayerError, make_rnn
from seq2seq.translation import Translation

from conftest import changed_run


def error_of(capsys, *argv):
    """The one line a command writes to stderr when it refuses `argv`; the next command starts
    in the locale's language (English, in the tests), as a new process would."""
    assert main(list(argv)) == 1
    choose(None)
    return capsys.readouterr().err.strip().splitlines()[-1]


# ---- the settings ------------------------------------------------------------------------------

def test_the_settings_errors_are_japanese_under_ja_and_english_otherwise():
    with pytest.raises(SettingError) as english:
        check_settings(heads=3, d_model=8)
    assert english.value.as_option() == ("--heads 3 does not divide --d-model 8 (each head gets "
                                         "d_model / heads features)")
    choose("ja")
    with pytest.raises(SettingError) as japanese:
        check_settings(heads=3, d_model=8)
    assert japanese.value.as_option().startswith("--heads 3 では --d-model 8 を割り切れません")
    with pytest.raises(SettingError, match="は空にできません"):
        check_settings(sep="")


def test_a_bounds_reason_made_at_import_is_said_in_the_language_of_the_error(capsys):
    assert "(a checkpoint is written after every epoch, and records each: more is a typo)" \
        in error_of(capsys, "train", "--epochs", "1000000")
    line = error_of(capsys, "train", "--epochs", "1000000", "--lang", "ja")
    assert line.endswith("(チェックポイントはエポックごとに書き出され、各エポックを記録します: "
                         "これより多いのは打ち間違いです)")
    assert "--min-len 5 が --max-len 3 より大きくなっています" in error_of(
        capsys, "train", "--min-len", "5", "--max-len", "3", "--lang", "ja")


# ---- a training that diverges ------------------------------------------------------------------

def test_a_diverged_training_says_when_and_what_to_change_in_either_language():
    config = types.SimpleNamespace(lr=1e30, clip=5.0)
    english = _diverged(message("epoch.loss_not_finite", value=math.nan), 0, 3, config)
    assert str(english) == ("the loss became nan at epoch 1, batch 3: lower --lr (now 1e+30) or "
                            "--clip (now 5); this epoch was not saved")
    choose("ja")
    japanese = _diverged(message("epoch.loss_not_finite", value=math.nan), 0, 3, config)
    assert str(japanese) == ("エポック 1、バッチ 3 で損失が nan になりました: --lr (現在 1e+30) か "
                             "--clip (現在 5) を小さくしてください。このエポックは保存していません")


# ---- evaluate ----------------------------------------------------------------------------------

def test_evaluates_table_and_notes_are_japanese_under_ja(tiny_run, capsys):
    assert main(["evaluate", str(tiny_run), "--task", "copy", "--num-examples", "20"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("examples         20\nseen_in_training 0\nexact_match      ")
    assert "bleu_tokens      char  (characters)" in out
    assert "copy: sources of 3 to 12 tokens, the task's default lengths" in err
    assert main(["evaluate", str(tiny_run), "--task", "copy", "--num-examples", "20",
                 "--lang", "ja"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ペアの数 (examples)            20\n")
    assert "完全一致率 (exact_match)" in out and "(文字)" in out and "examples " not in out
    assert "copy: 入力文は 3 から 12 トークン (タスクの既定の長さ)" in err
    assert "--min-len 4 が --max-len 3 より大きくなっています" in error_of(
        capsys, "evaluate", str(tiny_run), "--task", "copy", "--min-len", "4", "--max-len", "3",
        "--lang", "ja")


# ---- a text translate refuses ------------------------------------------------------------------

def test_a_text_too_long_to_translate_is_refused_in_japanese_under_ja(tiny_run, capsys):
    text = "a" * 1001
    assert error_of(capsys, "translate", str(tiny_run), text) == (
        "error: the text has 1001 tokens (char level); translate takes at most 1000")
    assert error_of(capsys, "translate", str(tiny_run), text, "--lang", "ja") == (
        "エラー: テキストはトークンが 1001 個あります (char 単位)。translate が受け付けるのは 1000 "
        "トークンまでです")


# ---- run folders, their lock and their pairs file ----------------------------------------------

def test_a_resume_with_other_settings_is_refused_in_japanese_under_ja(tiny_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(tiny_run, run)
    argv = ["train", "--out", str(run), "--resume", "--task", "reverse", "--num-examples",
            "300", "--min-len", "3", "--max-len", "5", "--embed-size", "8", "--hidden-size", "32",
            "--no-progress"]
    assert error_of(capsys, *argv) == (
        f"error: cannot resume {run} with other settings than its model was trained with: "
        "--hidden-size 32 (saved: 16); resume with the saved settings, or start afresh with "
        "--overwrite or another --out")
    assert error_of(capsys, *argv, "--lang", "ja") == (
        f"エラー: {run} は、モデルを学習したときと違う設定では続けられません: --hidden-size 32 "
        "(保存された値: 16)。保存された設定のまま続けるか、--overwrite か別の --out で新しく"
        "始めてください")


def test_a_folder_in_use_is_said_in_japanese_under_ja(tmp_path):
    (tmp_path / LOCK).write_text("4242\n")
    assert busy(tmp_path) == (f"{tmp_path} is in use by another run (process 4242): wait for it "
                              "to finish, or choose another --out")
    choose("ja")
    assert busy(tmp_path) == (f"{tmp_path} は別の学習 (プロセス 4242)が使っています: 終わるのを"
                              "待つか、別の --out を選んでください")


# ---- a model too large for the memory ----------------------------------------------------------

def test_a_model_too_large_for_the_memory_is_refused_in_japanese_under_ja(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sizes, "memory_limit", lambda: 2 ** 30)
    argv = ["train", "--task", "reverse", "--num-examples", "50", "--epochs", "1",
            "--hidden-size", "8", "--out", str(tmp_path / "run"), "--no-progress",
            "--embed-size", "10000000"]
    assert error_of(capsys, *argv).startswith(
        "error: --embed-size 10000000 is too large: training needs about ")
    line = error_of(capsys, *argv, "--lang", "ja")
    assert line.startswith("エラー: --embed-size 10000000 は大きすぎます: 学習には約 ")
    assert line.endswith("。使えるメモリ 1.0 GiB を超えています")
    assert not (tmp_path / "run").exists()


# ---- train's options -----------------------------------------------------------------------

def test_an_option_of_the_other_model_or_of_a_pairs_file_is_refused_in_japanese_under_ja(
        tmp_path, capsys):
    out = str(tmp_path / "run")
    assert error_of(capsys, "train", "--d-model", "16", "--out", out) == (
        "error: --d-model applies to --arch transformer only, and this run's arch is lstm: "
        "leave it out, or add --arch transformer")
    assert error_of(capsys, "train", "--task", "reverse", "--sep", ",", "--out", out) == (
        "error: --sep applies only to a pairs file (--task FILE), not to the built-in task "
        "reverse: leave it out")
    assert error_of(capsys, "train", "--d-model", "16", "--out", out, "--lang", "ja") == (
        "エラー: --d-model は --arch transformer だけのオプションで、この学習の arch は lstm "
        "です: 外すか、--arch transformer を付けてください")
    assert error_of(capsys, "train", "--task", "reverse", "--sep", ",", "--out", out, "--lang",
                    "ja") == ("エラー: --sep はペアファイル (--task FILE) だけに使えます。組み込み"
                              "のタスク reverse には使えません: 外してください")
    assert not (tmp_path / "run").exists()


# ---- a checkpoint's entries --------------------------------------------------------------------

def test_a_model_config_value_out_of_bounds_is_refused_in_japanese_under_ja(
        tiny_run, tmp_path, capsys):
    folder = changed_run(tiny_run, tmp_path, lambda s: s["model_config"].update(hidden_size=0))
    file = folder / "checkpoint.npz"
    assert error_of(capsys, "evaluate", str(folder)) == (
        f"error: {file}: not a seq2seq checkpoint that this version can load: its "
        f"'model_config.hidden_size' entry should be an integer in [1, {WIDEST}], found 0 (int)")
    assert error_of(capsys, "evaluate", str(folder), "--lang", "ja") == (
        f"エラー: {file}: この版で読める seq2seq のチェックポイントではありません: "
        f"'model_config.hidden_size' エントリは [1, {WIDEST}] の範囲の整数であるべきですが、"
        "0 (int) でした")


def test_a_history_that_does_not_match_and_a_missing_entry_are_said_in_japanese_under_ja(
        tiny_run, tmp_path, capsys):
    folder = changed_run(tiny_run, tmp_path, lambda s: s.update(epochs=3))
    assert error_of(capsys, "evaluate", str(folder)).endswith(
        "its 'history' entry should be 3 epochs long (the 'epochs' entry), found 1")
    assert error_of(capsys, "evaluate", str(folder), "--lang", "ja").endswith(
        "'history' エントリは 3 エポック分の長さ ('epochs' エントリのとおり)であるべきですが、"
        "1 でした")
    shutil.rmtree(folder)
    folder = changed_run(tiny_run, tmp_path, lambda s: s.pop("src_vocab"))
    assert error_of(capsys, "evaluate", str(folder)).endswith("no 'src_vocab' entry")
    assert error_of(capsys, "evaluate", str(folder), "--lang", "ja").endswith(
        "'src_vocab' エントリがありません")


def test_a_saved_setting_out_of_its_range_is_said_in_the_words_of_the_language(
        tiny_run, tmp_path, capsys):
    folder = changed_run(tiny_run, tmp_path, lambda s: s["config"].update(epochs=10 ** 6))
    assert error_of(capsys, "evaluate", str(folder)).endswith(
        "its 'config.epochs' entry should be an integer in [1, 100000], found 1000000 (int)")
    assert error_of(capsys, "evaluate", str(folder), "--lang", "ja").endswith(
        "'config.epochs' エントリは 整数 ([1, 100000] の範囲)であるべきですが、1000000 (int) "
        "でした")


# ---- a layer from the user's file --------------------------------------------------------------

def test_a_layer_file_that_is_not_one_is_refused_in_japanese_under_ja(
        tmp_path, capsys, forget_layer_modules):
    out = str(tmp_path / "run")
    assert error_of(capsys, "train", "--rnn", "foo", "--out", out) == (
        "error: --rnn should be FILE.py:CLASS (e.g. my_gru.py:GRU), got 'foo'")
    assert error_of(capsys, "train", "--rnn", "foo", "--out", out, "--lang", "ja") == (
        "エラー: --rnn は FILE.py:CLASS の形 (たとえば my_gru.py:GRU) で指定してください "
        "(指定された値: 'foo')")
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\n\nraise ValueError('boom')\n")
    assert error_of(capsys, "train", "--rnn", f"{bad}:GRU", "--out", out) == (
        f"error: --rnn: running {bad}, line 3 raised ValueError: boom")
    forget_layer_modules()
    assert error_of(capsys, "train", "--rnn", f"{bad}:GRU", "--out", out, "--lang", "ja") == (
        f"エラー: --rnn: {bad} の 3 行目を実行中に ValueError が発生しました: boom")
    bad.write_text("class Other:\n    pass\n")
    forget_layer_modules()
    assert error_of(capsys, "train", "--rnn", f"{bad}:GRU", "--out", out, "--lang", "ja") == (
        f"エラー: --rnn {bad}:GRU: {bad} には、再帰層のクラスが来るはずの GRU が定義されて"
        "いません")
    assert not (tmp_path / "run").exists()


# ---- draw and explore --------------------------------------------------------------------------

def test_a_step_past_the_last_one_is_refused_in_japanese_under_ja(tiny_run, tmp_path, capsys):
    argv = ["draw", str(tiny_run), "--sentence", "abcd", "--out", str(tmp_path / "x.svg"),
            "--step", "18"]
    assert error_of(capsys, *argv) == (
        "error: --step 18 is past the last step decoding of 'abcd' can reach: it stops after 18 "
        "steps (2 S + 10 for S = 4 source tokens), so the steps are 0 to 17")
    assert error_of(capsys, *argv, "--lang", "ja") == (
        "エラー: --step 18 は 'abcd' のデコードが届く最後のステップより後です: デコードは 18 "
        "ステップで止まる (入力文が S = 4 トークンなので 2 S + 10) ので、ステップは 0 から 17 "
        "までです")


def test_explores_page_speaks_the_language_of_the_messages(tiny_run, tmp_path, capsys,
                                                           monkeypatch):
    """`seq2seq explore RUN` made an English page under a Japanese locale, and `seq2seq --lang ja
    explore RUN` (the option before the command) too: the page follows the messages' language
    when explore's --lang is not written, and explore's own --lang still decides when it is."""
    def page(before=(), after=()):
        out = tmp_path / "page.html"
        assert main([*before, "explore", str(tiny_run), "--sentence", "abc", "--out", str(out),
                     "--overwrite", *after]) == 0
        choose(None)
        return out.read_text(encoding="utf-8")[:200]
    assert '<html lang="ja">' in page(["--lang", "ja"])
    assert '<html lang="ja">' in page(after=["--lang", "ja"])
    assert '<html lang="en">' in page(["--lang", "ja"], ["--lang", "en"])
    assert '<html lang="en">' in page()
    monkeypatch.setenv("LANGUAGE", "ja")                # a Japanese locale, no --lang
    choose(None)
    assert '<html lang="ja">' in page()
    assert '<html lang="en">' in page(after=["--lang", "en"])


# ---- a model without attention, report.json rewritten ------------------------------------------

def test_a_model_without_attention_has_no_heatmap_in_either_language():
    translation = Translation("ab", ["a", "b", "<eos>"], ["b", "a"])
    with pytest.raises(ValueError, match="^a model without attention has no attention weights "
                                         "to draw$"):
        translation.text_heatmap()
    choose("ja")
    with pytest.raises(ValueError, match="^アテンションのないモデルには、描くアテンションの重みが"
                                         "ありません$"):
        translation.text_heatmap()


# ---- a pairs file ------------------------------------------------------------------------------

def test_a_pairs_file_that_is_not_one_is_refused_in_japanese_under_ja(tmp_path, capsys):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("a\tb\nc,d\n")
    argv = ["train", "--task", str(pairs), "--out", str(tmp_path / "run"), "--no-progress"]
    assert error_of(capsys, *argv) == (
        f"error: {pairs}:2: expected 'source\\ttarget', found no '\\t' in 'c,d'; if the columns "
        "are separated by something else, give it with --sep ','")
    assert error_of(capsys, *argv, "--lang", "ja") == (
        f"エラー: {pairs}:2: 'source\\ttarget' の形のはずですが、'c,d' には '\\t' がありません。"
        "列がほかの文字で区切られているなら、--sep で指定してください (たとえば --sep ',')")
    pairs.write_bytes(b"a\tb\n\xff\tc\n")
    assert error_of(capsys, *argv, "--lang", "ja") == (
        f"エラー: {pairs}:2: UTF-8 のテキストではありません (この行の 1 バイト目が 0xff です)")
    assert error_of(capsys, "train", "--columns", "1,1", "--lang", "ja") == (
        "エラー: --columns 1,1: 入力文と出力文が同じ列です")
    assert not (tmp_path / "run").exists()


# ---- a block or a recurrent layer of the user's that breaks its contract ---------------------

class Failing:
    """An encoder block whose making fails, as a student's may."""

    def __init__(self, *args, **kwargs):
        raise ValueError("boom")


def test_a_block_that_breaks_its_contract_is_told_so_in_japanese_under_ja():
    with pytest.raises(BlockContractError) as english:
        check_block(Failing, d_model=8, heads=2, d_ff=8)
    assert str(english.value) == ("Failing(8, 2, 8, 0.0, norm_first=True) raised ValueError: "
                                  "boom")
    choose("ja")
    with pytest.raises(BlockContractError) as japanese:
        check_block(Failing, d_model=8, heads=2, d_ff=8)
    assert str(japanese.value) == ("Failing(8, 2, 8, 0.0, norm_first=True) で ValueError が発生し"
                                   "ました: boom")
    with pytest.raises(RecurrentLayerError, match="^rnn には再帰層のクラスを渡してください"):
        make_rnn(3, 4, 8)
