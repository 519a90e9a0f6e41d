"""Under --lang ja the lines of train, evaluate and explore that were still English are
Japanese, and their English is what it was: the resume line, the progress line's scores,
evaluate's refusals of options that choose generated pairs, explore's step of more ops than
--max-ops, a checkpoint's vocabulary or model_config that is not one, a --block class that makes
no nn.Module (named by its class's name), and the demo's count of pairs."""

import re

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.language import choose
from seq2seq.commands.cli import main

from conftest import changed_run


def error_line(capsys):
    """The one line of stderr a refused command writes, without its 'error: ' prefix."""
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0].partition(": ")[2]


# ---- train: the resume line and the progress line -------------------------------------------

def test_a_resumed_run_says_so_and_scores_its_epochs_in_japanese(smallest_run, tmp_path, capsys):
    run = changed_run(smallest_run, tmp_path, lambda state: None)
    assert main(["train", "--out", str(run), "--resume", "--epochs", "2", "--no-progress",
                 "--lang", "ja"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "エポック 1 の続きから学習を再開します。epochs は 1 から 2 に変わります"
    assert re.fullmatch(r"エポック 2/2: 損失 [0-9.]+  完全一致率 [0-9.]+  トークン正解率 "
                        r"[0-9.]+  BLEU スコア [0-9.]+", lines[2]), lines
    assert main(["train", "--out", str(run), "--resume", "--epochs", "3", "--no-progress",
                 "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "resuming after epoch 2; epochs 2 -> 3"
    assert re.fullmatch(r"epoch 3/3: loss [0-9.]+  exact_match [0-9.]+  token_accuracy "
                        r"[0-9.]+  bleu [0-9.]+", lines[2]), lines


def test_the_progress_line_names_the_scores_as_evaluate_does():
    from seq2seq.commands.progress import epoch_report
    scores = dict(exact_match=0.9245, token_accuracy=0.9733, bleu=0.9818, blank_outputs=0,
                  examples=10)
    choose("ja")
    assert epoch_report(1, 6, 0.7658, scores) == (
        "エポック 1/6: 損失 0.7658  完全一致率 0.9245  トークン正解率 0.9733  BLEU スコア 0.9818")
    choose("en")
    assert epoch_report(1, 6, 0.7658, scores) == (
        "epoch 1/6: loss 0.7658  exact_match 0.9245  token_accuracy 0.9733  bleu 0.9818")


# ---- evaluate: options that choose generated pairs, a run without its split -----------------

TASKS = "toy-ja-en, dates, reverse, copy, sort"


@pytest.mark.parametrize("option", [["--num-examples", "50"], ["--seed", "3"]])
def test_evaluate_refuses_a_pairs_option_without_a_task_in_japanese(smallest_run, capsys,
                                                                     option):
    assert main(["evaluate", str(smallest_run), *option, "--lang", "ja"]) == 1
    assert error_line(capsys) == (
        f"{option[0]} は組み込みの --task ({TASKS}) が生成するペアを選ぶオプションです。--task "
        f"がなければ、evaluate は実行が取り分けておいたペアで評価します: {option[0]} を外すか、"
        "--task を指定してください")
    assert main(["evaluate", str(smallest_run), *option, "--lang", "en"]) == 1
    assert error_line(capsys) == (
        f"{option[0]} chooses the pairs a built-in --task generates ({TASKS}); without one, "
        "evaluate scores the run's own held-out pairs: leave it out, or give --task")


@pytest.mark.parametrize("option", [["--min-len", "3"], ["--max-len", "4"]])
def test_evaluate_refuses_lengths_without_a_task_in_japanese(smallest_run, capsys, option):
    assert main(["evaluate", str(smallest_run), *option, "--lang", "ja"]) == 1
    assert error_line(capsys) == ("--min-len と --max-len は生成する --task の長さを選ぶ"
                                  f"オプションです: 組み込みのタスク ({TASKS}) を指定してください")
    assert main(["evaluate", str(smallest_run), *option, "--lang", "en"]) == 1
    assert error_line(capsys) == ("--min-len and --max-len choose the lengths of a generated "
                                  f"--task: give a built-in one ({TASKS})")


def test_evaluate_of_a_run_without_its_split_says_so_in_japanese(smallest_run, tmp_path, capsys):
    run = changed_run(smallest_run, tmp_path, lambda state: state.pop("split"))
    assert main(["evaluate", str(run), "--lang", "ja"]) == 1
    assert error_line(capsys) == (f"{run} は検証用の分割を記録していません (古い版で保存され"
                                  "ました)。--task を指定して評価するか、もう一度学習してください")
    assert main(["evaluate", str(run), "--lang", "en"]) == 1
    assert error_line(capsys) == (f"{run} does not record its validation split (it was saved by "
                                  "an older version); evaluate it with --task, or train it again")


# ---- explore: a step of more ops than --max-ops ----------------------------------------------

def test_seq2seq_explore_names_its_max_ops_option_in_either_language(smallest_run, tmp_path,
                                                                     capsys):
    out = str(tmp_path / "step.html")
    assert main(["explore", str(smallest_run), "--out", out, "--max-ops", "1", "--lang",
                 "ja"]) == 1
    line = error_line(capsys)
    count = re.search(r"このステップには (\d+) 個の演算があり", line).group(1)
    assert line == (f"explore: このステップには {count} 個の演算があり、--max-ops 1 を超えて"
                    "います (ブラウザは数千個を配置するのに数秒かかります)。もっと大きな "
                    "--max-ops を指定してください")
    assert main(["explore", str(smallest_run), "--out", out, "--max-ops", "1", "--lang",
                 "en"]) == 1
    assert error_line(capsys) == (f"explore: the step has {count} ops, more than --max-ops 1 (a "
                                  "browser needs seconds to lay out a few thousand); give a "
                                  "larger --max-ops")


def test_explore_in_python_refuses_too_many_ops_in_the_language_of_the_messages():
    from minigrad.viz import explore
    from minigrad.viz.explorer.data import TooManyOps
    x = Tensor(np.ones(3), requires_grad=True)
    choose("ja")
    with pytest.raises(TooManyOps) as refused:
        explore((x * 2.0).sum(), max_ops=1)
    assert (refused.value.count, refused.value.most) == (2, 1)
    assert str(refused.value) == (
        "explore: このグラフには 2 個の演算があり、max_ops=1 を超えています (ブラウザは数千個を"
        "配置するのに数秒かかります)。もっと小さな部分 (1 ステップ、1 層) を探るか、max_ops を"
        "大きくしてください")


# ---- a checkpoint's vocabulary and model_config ----------------------------------------------

def test_a_vocabulary_that_is_not_one_is_refused_in_japanese(smallest_run, tmp_path, capsys):
    def change(state):
        state["src_vocab"] = {"tokens": ["a"]}
    run = changed_run(smallest_run, tmp_path, change)
    assert main(["evaluate", str(run), "--lang", "ja"]) == 1
    assert error_line(capsys).endswith(
        "'src_vocab' エントリ: ValueError: 語彙は ('<pad>', '<bos>', '<eos>', '<unk>') で始まる"
        "べきですが、この語彙は ('a',) で始まっています")
    assert main(["evaluate", str(run), "--lang", "en"]) == 1
    assert error_line(capsys).endswith(
        "its 'src_vocab' entry: ValueError: a vocabulary must start with ('<pad>', '<bos>', "
        "'<eos>', '<unk>'), this one starts with ('a',)")


def test_a_setting_the_lstm_model_lacks_is_refused_by_name(smallest_run, tmp_path, capsys):
    run = changed_run(smallest_run, tmp_path,
                      lambda state: state["model_config"].update(zzz=1))
    names = ("src_vocab_size, tgt_vocab_size, embed_size, hidden_size, attention, wiring, "
             "padding_idx, fused, bidirectional")
    assert main(["evaluate", str(run), "--lang", "ja"]) == 1
    assert error_line(capsys).endswith(
        f"'model_config.zzz' エントリは ないはずのもの (LSTM モデルにそのような設定はありません。"
        f"設定は {names} です)であるべきですが、1 (int) でした")
    assert main(["evaluate", str(run), "--lang", "en"]) == 1
    line = error_line(capsys)
    assert line.endswith(f"its 'model_config.zzz' entry should be absent (the LSTM model has no "
                         f"such setting; its settings are {names}), found 1 (int)")
    assert "TypeError" not in line


# ---- a --block class that makes no nn.Module -------------------------------------------------

def test_a_block_that_is_not_a_module_is_named_by_its_class(tmp_path, capsys):
    block = tmp_path / "plain_block.py"
    block.write_text("class B:\n    def __init__(self, *sizes, **settings):\n        pass\n",
                     encoding="utf-8")
    args = ["train", "--arch", "transformer", "--task", "sort", "--num-examples", "20",
            "--block", f"{block}:B", "--out", str(tmp_path / "run")]
    assert main([*args, "--lang", "ja"]) == 1
    assert error_line(capsys).endswith(
        "norm_first=True) が作ったのは B で、minigrad の nn.Module ではありません。B を nn.Module "
        "のサブクラスにしてください (そのパラメータはモデルのものと一緒に学習・保存されます)")
    assert main([*args, "--lang", "en"]) == 1
    assert error_line(capsys).endswith(
        "norm_first=True) made a B, not a minigrad nn.Module: make B a subclass of nn.Module (its "
        "parameters are trained and saved with the model's)")


# ---- the demo's count of pairs ---------------------------------------------------------------

def test_the_demo_writes_its_pairs_as_it_writes_the_held_out_count():
    from seq2seq.commands.messages import message
    values = dict(attention="内積アテンション", task="toy-ja-en", pairs=12000, epochs=6)
    choose("ja")
    assert "(12,000 組のペア、6 エポック" in message("demo.training", **values)
    choose("en")
    assert "(12,000 sentence pairs, 6 epochs" in message("demo.training", **values)
