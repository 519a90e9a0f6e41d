"""Messages in English or Japanese (minigrad.language): how the language is chosen, the two
catalogs of each floor kept in step, and --lang on the commands, in this process and end to end.
conftest.py pins English (LANGUAGE=en) for every other test; these ask for Japanese."""

import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad import language
from minigrad.grade.exercises import EXERCISES
from minigrad.grade.grader import main as grade_main
from minigrad.language import choose, current, from_environment, given_in
from seq2seq.commands.cli import main as seq2seq_main

ROOT = Path(__file__).resolve().parents[1]
FLOORS = ("minigrad.messages", "seq2seq.commands.messages", "seq2seq.data.messages",
          "seq2seq.models.messages", "attention.messages")

# terms.md's "never write" column: the Japanese edition uses one word for each idea
NEVER = ("グラディエント", "バックプロパゲーション", "後方伝播", "フォワードパス", "前方伝播",
         "ロス関数", "ウェイト", "隠し状態", "エンコーダー", "デコーダー", "教師強制", "注目機構",
         "自己注意機構", "ドット積", "エンベディング", "レイヤー正規化", "レイヤーノルム",
         "位置符号化", "オペレーション", "エクスプローラー", "パラメーター", "トランス")
JAPANESE = re.compile(r"[\u3001\u3002\u3040-\u30ff\u4e00-\u9fff]")   # 、。 kana or kanji
# only placeholders and symbols: "{kind} ({range})", "{name}: {cut} ({where}):", " {name} "
NEUTRAL = {"setting.wanted", "grade.cut", "diagnose.named"}


def catalog(floor, name):
    return language.Catalog(floor).texts[name]


def fields(text):
    return sorted({field for _, field, _, _ in string.Formatter().parse(text) if field})


# ---- the catalogs ----------------------------------------------------------------------------

@pytest.mark.parametrize("floor", FLOORS)
def test_every_english_message_has_a_japanese_one_with_the_same_placeholders(floor):
    english, japanese = catalog(floor, "en"), catalog(floor, "ja")
    assert sorted(english) == sorted(japanese)
    for key, text in english.items():
        assert fields(japanese[key]) == fields(text), key


@pytest.mark.parametrize("floor", FLOORS)
def test_japanese_messages_are_written_in_japanese(floor):
    english, japanese = catalog(floor, "en"), catalog(floor, "ja")
    for key in japanese.keys() - NEUTRAL:
        assert JAPANESE.search(japanese[key]), key
        assert japanese[key] != english[key], key


@pytest.mark.parametrize("floor", FLOORS)
def test_japanese_messages_use_the_fixed_terms(floor):
    for key, text in catalog(floor, "ja").items():
        assert not [word for word in NEVER if word in text], key
        assert "ー" not in text or not re.search(r"(エンコーダ|デコーダ|パラメータ)ー", text), key


def test_a_message_fills_its_placeholders_in_the_language_chosen():
    from minigrad.messages import message
    choose("ja")
    assert message("grade.no_file", path="x.py") == "ファイルがありません: x.py"
    choose("en")
    assert message("grade.no_file", path="x.py") == "no such file: x.py"


# ---- choosing the language -------------------------------------------------------------------

@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"), ({"LANGUAGE": ":ja", "LANG": "C"}, "ja"),
    ({"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}, "ja"),
    ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "en"),
    ({"LANGUAGE": "ja:en", "LC_ALL": "en_US.UTF-8"}, "ja"),
    ({"LANGUAGE": "en", "LANG": "ja_JP.UTF-8"}, "en"),
    ({"LANGUAGE": "", "LC_ALL": "", "LANG": "ja_JP.eucJP"}, "ja"),    # empty: not set
])
def test_the_locale_is_read_as_gettext_reads_it(environ, expected):
    assert from_environment(environ) == expected


def test_lang_wins_over_the_locale_and_none_gives_the_locale_back(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "ja")
    assert current() == "ja"
    choose("en")
    assert current() == "en"
    choose(None)
    assert current() == "ja"


def test_an_unknown_language_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^--lang 'fr': the languages are en, ja$"):
        choose("fr")


@pytest.mark.parametrize("argv, expected", [
    (["train", "--lang", "ja"], "ja"), (["--lang=ja", "train"], "ja"), (["train"], None),
    (["train", "--lang", "fr"], None), (["translate", "run", "--", "--lang", "ja"], None),
    (["--lang", "en", "train", "--lang", "ja"], "ja"), (["train", "--lan", "ja"], "ja"),
    (["train", "--la=ja"], "ja"), (["train", "--lang", "ja", "--lang", "fr"], "ja")])
def test_lang_is_found_on_a_command_line_before_it_is_parsed(argv, expected):
    assert given_in(argv) == expected


# ---- --lang on the commands ------------------------------------------------------------------

@pytest.mark.parametrize("argv, expected", [
    (["train", "--lang", "ja", "--hidden-size", "0", "--epochs", "1"],
     "エラー: --hidden-size には整数 (>= 1) を指定してください (指定された値: 0)"),
    (["--lang", "ja", "train", "--lr", "abc"],
     "エラー: 引数 --lr: 'abc' は数値ではありません (python -m seq2seq train --help を参照して"
     "ください)"),
    (["evaluate", "--lang", "ja", "RUN"], "エラー: RUN: そのような実行フォルダはありません "
     "(学習するには: python -m seq2seq train --out RUN ...)"),
    (["translate", "--lang", "ja", "RUN", "ねこ"], "エラー: RUN: そのような実行フォルダは"
     "ありません (学習するには: python -m seq2seq train --out RUN ...)"),
    (["demo", "--lang", "ja", "--epochs", "0", "--out", "RUN"],
     "エラー: --epochs には整数 ([1, 100000] の範囲) を指定してください (指定された値: 0)"),
])
def test_lang_ja_on_each_command_gives_its_error_in_japanese(argv, expected, tmp_path,
                                                              monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    try:
        status = seq2seq_main(argv)
    except SystemExit as stop:                  # argparse's errors end the parser
        status = stop.code
    assert status in (1, 2)
    assert capsys.readouterr().err == expected + "\n"


def test_lang_en_keeps_english_under_a_japanese_locale(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LANGUAGE", "ja")
    monkeypatch.chdir(tmp_path)
    assert seq2seq_main(["evaluate", "--lang", "en", "RUN"]) == 1
    assert capsys.readouterr().err.startswith("error: RUN: no such run folder")


def test_the_last_lang_written_and_a_prefix_of_it_count_as_argparse_reads_them(monkeypatch,
                                                                              capsys, tmp_path):
    """--lang en then --lang ja gave English messages while argparse kept ja; a prefix (--lan
    ja), which argparse takes for --lang, was left out."""
    monkeypatch.chdir(tmp_path)
    for argv in (["--lang", "en", "evaluate", "--lang", "ja", "RUN"],
                 ["evaluate", "--lang", "en", "--lang", "ja", "RUN"],
                 ["evaluate", "--lan", "ja", "RUN"]):
        choose(None)
        assert seq2seq_main(argv) == 1
        assert capsys.readouterr().err.startswith("エラー: "), argv


def test_an_unknown_lang_is_a_one_line_error(capsys):
    with pytest.raises(SystemExit) as stop:
        seq2seq_main(["train", "--lang", "fr"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == ("error: argument --lang: invalid choice: 'fr' (choose from "
                                       "'en', 'ja') (see python -m seq2seq train --help)\n")


def test_a_japanese_locale_gives_a_japanese_error_line_end_to_end(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in language.ENVIRONMENT}
    env.update(LANG="ja_JP.UTF-8", PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "seq2seq", "train", "--hidden-size", "0"],
                          cwd=tmp_path, env=env, capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode == 1
    assert done.stderr == ("エラー: --hidden-size には整数 (>= 1) を指定してください "
                           "(指定された値: 0)\n")
    assert done.stdout == ""


# ---- the grader in Japanese ------------------------------------------------------------------

GRU = """
def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    gi = x @ weight_ih.T + bias_ih
    gh = h @ weight_hh.T + bias_hh
    size = h.shape[-1]
    r = (gi[:, :size] + gh[:, :size]).{reset}()
    z = (gi[:, size:2 * size] + gh[:, size:2 * size]).sigmoid()
    n = (gi[:, 2 * size:] + r * gh[:, 2 * size:]).tanh()
    return (1 - z) * n + z * h
"""


def test_the_grader_names_a_wrong_gate_in_japanese(tmp_path, capsys):
    path = tmp_path / "gru.py"
    path.write_text(GRU.format(reset="tanh"), encoding="utf-8")
    assert grade_main(EXERCISES, "python -m minigrad.grade",
                      ["--lang", "ja", "gru_cell", str(path)]) == 1
    report = capsys.readouterr().err.split("\n")
    assert report[0].startswith("不合格: gru_cell: 出力 h_new が間違っています (ケース 1/4")
    assert report[3].startswith("  r、z か n のうち最初に食い違うのはリセットゲート r です")
    # the graded code's own process speaks Japanese too: it quotes the line
    assert report[4] == ("  その行を確かめてください: あなたのファイルの 6 行目: "
                         "r = (gi[:, :size] + gh[:, :size]).tanh()")


def test_the_grader_passes_in_japanese(tmp_path, capsys):
    path = tmp_path / "gru.py"
    path.write_text(GRU.format(reset="sigmoid"), encoding="utf-8")
    assert grade_main(EXERCISES, "python -m minigrad.grade",
                      ["gru_cell", str(path), "--lang", "ja"]) == 0
    assert capsys.readouterr().out.startswith("合格: gru_cell: 4 個のケースで、出力 (h_new) と")
