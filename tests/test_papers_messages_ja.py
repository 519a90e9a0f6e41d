"""The attention papers' experiments (seq2seq.papers) speak Japanese under --lang ja: their
one-line errors (the settings, the folder, the swap), what they print while they train, the
tables' headings and "written to ...". English stays as it was, word for word: each test checks
the English line beside the Japanese one. conftest.py pins English; these choose Japanese."""

import json

import pytest

from minigrad.language import choose
from seq2seq.commands.cli import main
from seq2seq.papers import swap
from seq2seq.papers.alignments import alignments
from seq2seq.papers.norms import compare_norms, table as norms_table
from seq2seq.papers.positions import table as positions_table

from test_runs import quiet, tiny

# ---- the settings' one-line errors ------------------------------------------------------------

SETTINGS = [
    (["compare-lengths", "--max-len", "10", "--test-max-len", "8"],
     "--test-max-len 8 は学習するいちばん長い入力文の長さ 10 (--max-len) より小さくなっています: "
     "より長い文で試すのが目的です",
     "--test-max-len 8 is below the longest training source, 10 (--max-len): the point is to "
     "test longer ones"),
    (["compare-lengths", "--num-examples", "1"],
     "--num-examples には 100 以上を指定してください (指定された値: 1): compare-lengths では、"
     "これより少ないペアではどちらのモデルもタスクを学べず、どちらも失敗した 2 つのモデルからは"
     "長さについて何もわかりません",
     "--num-examples must be at least 100 for compare-lengths, got 1: on fewer pairs neither "
     "model learns the task, and two models that both fail say nothing about length"),
    (["compare-scoring", "--task", "x"],
     "--task には組み込みのタスク (toy-ja-en, dates, reverse, copy, sort) を指定してください: "
     "compare-scoring はそのタスクの新しい文を生成して採点します (指定された値: 'x')",
     "--task must be a built-in task (toy-ja-en, dates, reverse, copy, sort): compare-scoring "
     "generates new sentences of it to score, got 'x'"),
    (["compare-architectures", "--budget", "0"],
     "--budget には有限の数 ((0, 86400] の範囲) を指定してください (指定された値: 0.0) (モデル"
     "ごと、タスクごとの学習の CPU 秒数で、最大 1 日です)",
     "--budget must be a finite number in (0, 86400], got 0.0 (CPU seconds of training per "
     "model per task, a day at most)"),
    (["compare-architectures", "--tasks", "reverse,reverse"],
     "--tasks に同じタスクが 2 回あります: 'reverse,reverse'",
     "--tasks names a task twice: 'reverse,reverse'"),
    (["compare-architectures", "--budget", "5", "--updates", "3"],
     "--updates と --budget はどちらも予算です: どちらか一方を指定してください",
     "--updates and --budget are two budgets: give one of them"),
    (["compare-positions", "--seeds", "1,1"],
     "--seeds には異なるシードを 1 個から 10 個指定してください (指定された値: '1,1')",
     "--seeds must name 1 to 10 different seeds, got '1,1'"),
    (["compare-positions", "--max-len", "3", "--test-max-len", "40"],
     "--test-max-len 40 には 40 までの位置が必要ですが、学習する位置の表は 20 行しかありません "
     "(0 ... 19: 2 x (--max-len + 2) + 10): 最大 19 です",
     "--test-max-len 40 needs positions up to 40, but the learned table has 20 rows (0 ... 19: "
     "2 x (--max-len + 2) + 10): at most 19"),
    (["compare-norms", "--warmup", "200", "--updates", "100"],
     "--warmup 200 が --updates 100 より小さくありません: ウォームアップのあるモデルが --lr に"
     "達しません",
     "--warmup 200 is not below --updates 100: the models with a warm-up would never reach --lr"),
    (["compare-norms", "--task", "x"],
     "--task には reverse, copy, sort のどれかを指定してください (数字のタスクです。指定された値: "
     "'x')",
     "--task must be one of reverse, copy, sort (a digit task), got 'x'"),
]


@pytest.mark.parametrize("argv,japanese,english", SETTINGS)
def test_an_experiments_setting_error_is_one_japanese_line_and_english_is_unchanged(
        tmp_path, capsys, argv, japanese, english):
    out = tmp_path / "experiment"
    assert main([*argv, "--out", str(out), "--lang", "ja"]) == 1
    assert capsys.readouterr().err == f"エラー: {japanese}\n"
    assert main([*argv, "--out", str(out), "--lang", "en"]) == 1
    assert capsys.readouterr().err == f"error: {english}\n"
    assert not out.exists()


def test_skipping_the_dates_task_is_said_in_japanese(tmp_path, capsys):
    argv = ["compare-architectures", "--tasks", "dates", "--out", str(tmp_path / "x")]
    assert main([*argv, "--lang", "ja"]) == 1
    printed = capsys.readouterr()
    assert printed.out == ("dates を飛ばします: --dates-file が指定されていません (組み込みのタスク"
                           "は本のデータではありません: そのペアファイルを指定してください)\n")
    assert printed.err == "エラー: --tasks には比べるタスクが残っていません\n"
    assert main([*argv, "--lang", "en"]) == 1
    printed = capsys.readouterr()
    assert printed.out == ("skipping dates: no --dates-file given (the built-in task is not the "
                           "book's data: give its file of pairs)\n")
    assert printed.err == "error: --tasks leaves no task to compare on\n"


# ---- the folder's one-line errors, and the swap's notes ---------------------------------------

def refused(out):
    configs = {"reverse": tiny(out / "reverse"), "toy-ja-en": tiny(out / "toy-ja-en")}
    with pytest.raises(ValueError) as caught:
        alignments(out, configs=configs, log=quiet)
    return str(caught.value)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_folder_errors_are_in_the_language_chosen(tmp_path, language):
    choose(language)
    out = tmp_path / "a"
    (out / "reverse").mkdir(parents=True)                   # the user's, not the experiment's
    foreign = refused(out)
    (out / "reverse").rmdir()
    (out / ".next").mkdir()
    (out / ".next" / "mine.txt").write_text("the user's")
    scratch = refused(out)
    (out / ".next" / "mine.txt").unlink()
    (out / ".next").rmdir()
    (out / "checkpoint.npz").write_text("")
    train_run = refused(out)
    expected = {
        "ja": [f"{out}/reverse は以前の alignments の結果のモデルのフォルダではありません "
               f"({out} の alignments.json に記録がありません): {out} の外へ移すか、別の "
               "--out を選んでください",
               f"{out}/.next は実験の途中の結果ではありません (実験のコマンドは、そこに .next と "
               ".replaced を .next/.begun とともに作ります): そのままにしてあります。"
               f"{out} の外へ移すか、別の --out を選んでください",
               f"{out} には train の学習結果があります (checkpoint.npz): alignments の実験には"
               "別の --out を選んでください"],
        "en": [f"{out}/reverse is not a model folder of an earlier alignments run (no "
               f"alignments.json in {out} records it): move it out of {out}, or choose another "
               "--out",
               f"{out}/.next is not an experiment's unfinished run (the experiment commands make "
               ".next and .replaced there, with .next/.begun): it is left as it is; move it out "
               f"of {out}, or choose another --out",
               f"{out} holds a train run (checkpoint.npz): choose another --out for the "
               "alignments experiment"]}
    assert [foreign, scratch, train_run] == expected[language]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_what_a_stopped_command_left_is_cleared_with_a_note_in_the_language(tmp_path, language):
    choose(language)
    unfinished, begun = tmp_path / "unfinished", tmp_path / "begun"
    for out in (unfinished, begun):
        out.mkdir()
        swap.begin(out)                                     # OUT/.next, as a run begins it
    (begun / ".next" / ".ready").write_text(json.dumps([]))
    lines = []
    swap.finish(unfinished, lines.append)
    swap.finish(begun, lines.append)
    assert lines == {
        "ja": [f"止まったコマンドが {unfinished}/.next に残した途中の結果を削除しました",
               f"止まったコマンドが始めていた、{begun} の以前の結果の置き換えを終えました"],
        "en": [f"removed the unfinished run that a stopped command left in {unfinished}/.next",
               f"finished replacing the earlier run in {begun}, which a stopped command had "
               "begun"]}[language]


# ---- what an experiment prints: progress, its table, where it wrote ---------------------------

@pytest.fixture(scope="module")
def norms_run(tmp_path_factory):
    """compare-norms at its smallest, run under --lang ja: (its lines, its result)."""
    out = tmp_path_factory.mktemp("norms") / "norms"
    choose("ja")
    lines = []
    try:
        result = compare_norms(out, seeds=(0,), updates=4, every=2, warmup=2, layers=1,
                               num_examples=100, log=lines.append)
    finally:
        choose(None)
    return out, lines, result


def test_an_experiment_run_under_lang_ja_prints_japanese_from_start_to_end(norms_run):
    out, lines, _ = norms_run
    assert lines[0] == "pre-norm、ウォームアップあり、シード 0 を 4 回の更新で学習します"
    assert lines[1].startswith("4 回の更新 (1 バッチのエポックを 4.00 回) を CPU 時間 ")
    assert "シード間の最小から最大" in lines
    assert lines[-2].startswith("(V 個の出力トークンを一様に当て推量すると ln V = ")
    assert lines[-1] == f"{out}/compare-norms.json に書き出しました"


def test_the_norms_table_lines_up_in_japanese_and_is_unchanged_in_english(norms_run):
    _, _, result = norms_run
    choose("ja")
    japanese = norms_table(result)
    assert japanese[0] == ("\nreverse、1 + 1 層、Adam (学習率 0.01、ウォームアップ: 2 回の更新)、"
                           "128 組のバッチで 4 回の更新、シード 0:")
    assert japanese[3].startswith("モデル" + " " * 33 + "1-2     最後の 2      完全一致率")
    assert japanese[4].startswith("pre-norm、ウォームアップあり   ")     # 29 cells, as モデル
    choose("en")
    english = norms_table(result)
    assert english[:4] == [
        "\nreverse, 1 + 1 layers, Adam at lr 0.01 (warm-up: 2 updates), 4 updates of batches of "
        "128, seed 0:", "lowest to highest over the seeds",
        "                          mean loss, updates               held out            "
        "first block gradient",
        "model                           1-2       last 2     exact match         BLEU   "
        "update 1     last 2"]
    assert english[4].startswith("pre-norm, warm-up      ")


POSITIONS = {"task": "reverse", "seeds": [0, 1], "epochs": 1, "num_examples": 1000,
             "trained_lengths": [3, 4], "tested_lengths": [5, 5],
             **{kind: {str(seed): {"exact_match": {"4": 0.5, "5": 0.0},
                                   "output_length": {"5": 4.0},
                                   "sentences": {"4": 10, "5": 5}} for seed in (0, 1)}
                for kind in ("sinusoidal", "learned")}}


def test_the_positions_table_has_japanese_headings_and_the_same_english(tmp_path):
    choose("ja")
    assert positions_table(POSITIONS)[:3] == [
        "\nreverse、3 から 4 桁で学習 (1,000 組のペアで 1 エポック)、シード 0, 1:",
        "完全一致率はシード間の最小から最大、出力の長さはその平均",
        "  長さ    文の数           完全一致率                出力の長さ"]
    assert positions_table(POSITIONS)[5] == " " * 21 + "-- 学習したどの入力文よりも長い --"
    choose("en")
    assert positions_table(POSITIONS)[:3] == [
        "\nreverse, trained on 3 to 4 digits (1 epoch of 1,000 pairs), seeds 0, 1:",
        "exact match, lowest to highest over the seeds; output length, their mean",
        "length sentences           exact match              output length"]
    assert positions_table(POSITIONS)[5] == " " * 18 + "-- longer than any training source --"
