"""Every command-line failure is one line on stderr and a non-zero exit status, whatever the
exception; `--debug` or MINIGRAD_DEBUG=1 shows the traceback instead. The commands run in-process
(`main([...])`) except for two runs that check what a user's terminal really shows."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.commands.train import TrainConfig, train

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--task", "copy", "--num-examples", "20", "--epochs", "1", "--embed-size", "4",
        "--hidden-size", "8", "--no-progress"]


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    """A model trained for one epoch on 20 pairs (about a second)."""
    out = tmp_path_factory.mktemp("run")
    train(TrainConfig(task="copy", num_examples=20, epochs=1, embed_size=4, hidden_size=8,
                      progress=False, out=str(out)), log=lambda *a: None)
    return out


def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


# ---- settings: NaN, infinity and nonsense are refused before any work -------------------------

@pytest.mark.parametrize("option, value, message", [
    ("--lr", "nan", "--lr must be a finite number > 0, got nan"),
    ("--lr", "inf", "--lr must be a finite number > 0, got inf"),
    ("--lr-decay", "nan", "--lr-decay must be a finite number in (0, 1], got nan"),
    ("--clip", "nan", "--clip must be a finite number > 0, got nan"),
    ("--teacher-forcing-ratio", "nan", "--teacher-forcing-ratio must be a finite number in"),
    ("--val-fraction", "nan", "--val-fraction must be a finite number in [0, 1), got nan"),
    ("--epochs", "0", "--epochs must be an integer in [1, 100000], got 0"),
    ("--seed", "-1", "--seed must be an integer >= 0, got -1"),
    ("--hidden-size", "0", "--hidden-size must be an integer >= 1, got 0"),
])
def test_train_refuses_settings_that_would_give_a_nan_or_empty_model(tmp_path, capsys, option,
                                                                     value, message):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out), option, value]) == 1
    assert message in one_error_line(capsys)
    assert not out.exists()                                     # refused before any work


@pytest.mark.parametrize("option, value, message", [
    ("--epochs", "0", "error: --epochs must be an integer in [1, 100000], got 0"),
    ("--label-smoothing", "-0.1", "error: --label-smoothing must be a finite number in [0, 1), "
                                  "got -0.1"),
    ("--threads", "0", "error: --threads must be an integer in [1, 1024], got 0"),
])
def test_a_value_below_the_range_is_not_given_the_reason_for_its_top(tmp_path, capsys, option,
                                                                     value, message):
    """The reason of an upper bound ("more is a typo") says nothing of a value too low."""
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out), option, value]) == 1
    assert one_error_line(capsys) == message


def test_a_validation_split_that_leaves_no_training_pair_is_refused(tmp_path, capsys):
    assert main(["train", *TINY, "--out", str(tmp_path / "r"), "--val-fraction", "0.99"]) == 1
    assert one_error_line(capsys) == ("error: --val-fraction 0.99 leaves no pair to train on: "
                                      "all 20 pairs are held out for validation")


def test_the_api_refuses_the_same_settings_by_their_python_names(tmp_path):
    with pytest.raises(ValueError, match="^lr must be a finite number > 0, got nan$"):
        train(TrainConfig(lr=float("nan"), out=str(tmp_path / "r")))
    with pytest.raises(ValueError, match="^val_fraction 0.99 leaves no pair to train on"):
        train(TrainConfig(task="copy", num_examples=20, val_fraction=0.99, hidden_size=4,
                          progress=False, out=str(tmp_path / "r")), log=lambda *a: None)


@pytest.mark.parametrize("args, message", [
    (["demo", "--epochs", "-1"], "--epochs must be an integer in [1, 100000], got -1"),
    (["demo", "--epochs", "0"], "--epochs must be an integer in [1, 100000], got 0"),      # not "6"
    (["demo", "--num-examples", "0"], "--num-examples must be an integer in [1, 10000000], got"),
    (["demo", "--seed", "-5"], "--seed must be an integer >= 0, got -5"),
    (["compare-lengths", "--hidden-size", "0"], "--hidden-size must be an integer >= 1, got 0"),
    (["compare-lengths", "--epochs", "0"], "--epochs must be an integer in [1, 100000], got 0"),
    (["compare-lengths", "--num-examples", "-1"], "--num-examples must be an integer in [1, "),
    (["compare-lengths", "--task", "pairs.tsv"], "--task must be a built-in task (toy-ja-en, "),
])
def test_demo_and_compare_lengths_make_the_checks_train_makes(tmp_path, capsys, args, message):
    out = tmp_path / "out"
    assert main([*args, "--out", str(out)]) == 1
    assert message in one_error_line(capsys)
    assert not out.exists()


def test_demo_epochs_0_is_refused_as_train_refuses_it_not_read_as_the_default():
    from seq2seq.commands.demo import demo_config
    assert demo_config("out").epochs == 6 and demo_config("out").num_examples == 12000
    assert demo_config("out", epochs=1, num_examples=50).epochs == 1
    for epochs in (0, -1):
        with pytest.raises(ValueError, match=re.escape(      # (no reason: that is the top's)
                f"epochs must be an integer in [1, 100000], got {epochs}") + "$"):
            demo_config("out", epochs=epochs)


@pytest.mark.parametrize("args, message", [
    (["evaluate", "{run}", "--beam-size", "-1"],
     "--beam-size must be an integer in [1, 100], got -1"),
    (["evaluate", "{run}", "--task", "copy", "--num-examples", "-1"], "--num-examples must be"),
    (["translate", "{run}", "12", "--beam-size", "0"],
     "--beam-size must be an integer in [1, 100]"),
    (["translate", "{run}", ""], "the text to translate is empty"),
    (["translate", "{run}", "   "], "the text to translate is empty"),
    (["draw", "{run}", "--step", "-1"], "--step must be an integer in [0, 2009], got -1"),
])
def test_evaluate_translate_and_draw_check_their_options(run_folder, capsys, args, message):
    assert main([a.format(run=run_folder) for a in args]) == 1
    assert message in one_error_line(capsys)


@pytest.mark.parametrize("args, message", [
    (["train", "--task", "toy-ja-en", "--max-len", "100000"],
     "--max-len must be an integer in [1, 1000], got 100000"),
    (["train", "--task", "reverse", "--max-len", "100000"], "--max-len must be an integer in"),
    (["train", "--task", "dates", "--num-examples", "1000000000"],
     "--num-examples must be an integer in [1, 10000000], got 1000000000"),
    (["train", "--num-examples", "99999999999999999999"], "--num-examples must be an integer in"),
    (["train", "--min-len", "5", "--max-len", "3"], "--min-len 5 is above --max-len 3"),
    (["train", "--sep", ""], "--sep must not be empty"),
    (["evaluate", "{run}", "--task", "dates", "--num-examples", "1000000000"],
     "--num-examples must be an integer in"),
    (["draw", "{run}", "--step", "100000000"], "--step must be an integer in [0, 2009]"),
    (["evaluate", "{run}", "--beam-size", "100000"], "--beam-size must be an integer in [1, 100], "
     "got 100000 (beam search weighs beam_size**2 candidates a step, one by one)"),
    (["translate", "{run}", "12", "--beam-size", "101"], "--beam-size must be an integer in"),
    (["train", "--epochs", "1000000000000"], "--epochs must be an integer in [1, 100000], got "
     "1000000000000 (a checkpoint is written after every epoch"),
    (["train", "--threads", "1000000"], "--threads must be an integer in [1, 1024], got 1000000"),
    (["train", "--label-smoothing", "1"], "--label-smoothing must be a finite number in [0, 1), "
     "got 1.0 (at 1 every target is uniform: the loss teaches nothing)"),
    (["compare-positions", "--epochs", "1000000000"],
     "--epochs must be an integer in [1, 100000], got 1000000000"),
])
def test_settings_without_an_upper_bound_are_refused_at_once(run_folder, tmp_path, capsys, args,
                                                              message):
    out = tmp_path / "run"
    argv = [a.format(run=run_folder) for a in args]
    assert main(argv + (["--out", str(out)] if argv[0] == "train" else [])) == 1
    assert message in one_error_line(capsys)
    assert not out.exists()


def test_the_length_bound_is_what_translate_takes():
    from seq2seq.commands.settings import MAX_STEP, MAX_TOKENS
    from seq2seq.translator import MAX_SOURCE_TOKENS
    assert MAX_TOKENS == MAX_SOURCE_TOKENS and MAX_STEP == 2 * MAX_SOURCE_TOKENS + 9


# ---- checkpoints: what is wrong inside a file names the file ----------------------------------

def broken_copy(run_folder, tmp_path, change):
    state = minigrad.load(run_folder / "checkpoint.npz")
    change(state)
    path = tmp_path / "broken.npz"
    minigrad.save(state, path)
    return path


@pytest.mark.parametrize("change, words", [
    (lambda s: s["model_config"].update(hidden_size=9), ["'model_config'", "hidden_size 9",
                                                         "(36, 9)", "the saved one is (32, 8)"]),
    (lambda s: s["model_config"].update(hidden_size=10**9), ["hidden_size 1000000000",
                                                             "the saved one is (32, 8)"]),
    (lambda s: s["model_config"].update(embed_size="16"),
     ["'model_config.embed_size' entry should be an integer in [1, "]),
    (lambda s: s["model_config"].update(bidirectional="no"), ["bidirectional must be true"]),
    (lambda s: s["model_config"].update(src_vocab_size=5), ["src_vocab_size 5", "the saved one"]),
    (lambda s: s.update(reverse_input="no"), ["'reverse_input'", "true or false", "'no'"]),
    (lambda s: s.update(level="klingon"), ["'level'", "'char' or 'word'", "'klingon'"]),
    (lambda s: s.update(model=[1, 2]), ["'model'", "should be a dict of arrays"]),
    (lambda s: s.pop("src_vocab"), ["no 'src_vocab' entry"]),
    (lambda s: s["model_config"].update(hidden_size=0),
     ["'model_config.hidden_size' entry should be an integer in [1, "]),
    (lambda s: s.update(src_vocab="not a vocabulary"), ["src_vocab", "str"]),
    # every entry by type, read or not by the command (one place:
    # seq2seq/commands/checkpoint_entries.py)
    (lambda s: s["split"].update(val_pairs=7), ["'split.val_pairs' entry should be a list of "
                                                "[source, target] pairs, found 7 (int)"]),
    (lambda s: s["split"].update(val_pairs=[["1", 2]]), ["'split.val_pairs[0]'", "of str"]),
    (lambda s: s["split"].update(train_sources=np.zeros(3)), ["'split.train_sources'",
                                                             "uint64", "float64"]),
    (lambda s: s["tgt_vocab"]["tokens"].__setitem__(5, 5), ["'tgt_vocab.tokens[5]' entry should "
                                                            "be a str (a token) without control "
                                                            "characters, found 5 (int)"]),
    # printed, a terminal's escapes would clear the screen or set its title
    (lambda s: s["tgt_vocab"]["tokens"].__setitem__(4, "\x1b]0;title\x07\x1b[2J"),
     ["'tgt_vocab.tokens[4]'", "without control characters", "'\\x1b]0;title\\x07\\x1b[2J'"]),
    (lambda s: s["split"].update(val_pairs=[["12\r", "21"]]),
     ["'split.val_pairs[0]'", "without control characters", "['12\\r', '21']"]),
    (lambda s: s["config"].update(task=["reverse"]), ["'config.task'", "a str"]),
    (lambda s: s.update(history={"epoch": 1}), ["'history'", "a list of dicts"]),
    (lambda s: s["model"].update({"decoder.out.bias": np.arange(3)}),
     ["'model.decoder.out.bias' entry should be an array of floating-point numbers",
      "dtype int64"]),
    (lambda s: s["model"].update({"decoder.out.bias": np.zeros(99)}),
     ["'model.decoder.out.bias' entry should be of shape (14,) (as model_config says), found an "
      "array of shape (99,)"]),
    (lambda s: s["model"].update({"decoder.extra": np.zeros(2)}), ["'model.decoder.extra'",
                                                                    "absent"]),
    (lambda s: s["model"].pop("decoder.out.bias"), ["no 'model.decoder.out.bias' entry"]),
    (lambda s: s["optimizer"]["state"][0].update(m=np.zeros(10**5)), ["'optimizer.state.0.m'",
                                                                      "no larger than"]),
    # weights that are not numbers: an empty translation, status 0, before they were refused
    (lambda s: s["model"]["decoder.out.weight"].__setitem__((0, 0), np.nan),
     ["'model.decoder.out.weight' entry should be finite numbers, found 1 of its "]),
    (lambda s: s["model"]["encoder.embedding.weight"].__setitem__((1, 1), -np.inf),
     ["'model.encoder.embedding.weight'", "NaN or infinite"]),
])
def test_a_checkpoint_whose_content_does_not_fit_names_the_file(run_folder, tmp_path, capsys,
                                                                change, words):
    path = broken_copy(run_folder, tmp_path, change)
    assert main(["translate", str(path), "12"]) == 1
    line = one_error_line(capsys)
    assert line.startswith(f"error: {path}: not a seq2seq checkpoint")
    for word in words:
        assert word in line


# ---- any exception is one line; --debug shows the traceback ----------------------------------

@pytest.mark.parametrize("error, shown", [
    (ZeroDivisionError("float division by zero"), "ZeroDivisionError: float division by zero"),
    (IndexError("index 3 is out of bounds"), "IndexError: index 3 is out of bounds"),
    (RuntimeError("multi\n  line"), "RuntimeError: multi line"),
    (RecursionError("maximum recursion depth exceeded"), "too deep a recursion"),
    (MemoryError("Unable to allocate 596. GiB"),
     "out of memory: Unable to allocate 596. GiB (is --hidden-size 1000000 too large?)"),
    (ValueError("Maximum allowed dimension exceeded"), "(is --hidden-size 1000000 too large?)"),
    (KeyError("model"), "missing key 'model'"),
    (ModuleNotFoundError("No module named 'tqdm'", name="tqdm"),      # a dependency: which Python
     "has no module 'tqdm', which the project needs: run the command in the project's environment"),
    (ModuleNotFoundError("No module named 'gru'", name="gru"), "ModuleNotFoundError: No module"),
])
def test_any_exception_is_one_line_with_status_1(tmp_path, capsys, monkeypatch, error, shown):
    def fail(config, log=print, layer_file=None, pairs_file=None):
        raise error
    monkeypatch.setattr("seq2seq.commands.train.train", fail)
    monkeypatch.delenv("MINIGRAD_DEBUG", raising=False)
    assert main(["train", *TINY, "--hidden-size", "1000000", "--out", str(tmp_path)]) == 1
    assert shown in one_error_line(capsys)


def test_ctrl_c_exits_with_130(tmp_path, capsys, monkeypatch):
    def interrupted(config, log=print, layer_file=None, pairs_file=None):
        raise KeyboardInterrupt
    monkeypatch.setattr("seq2seq.commands.train.train", interrupted)
    assert main(["train", *TINY, "--out", str(tmp_path)]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


@pytest.mark.parametrize("code", [0, 5, None])
def test_a_sys_exit_in_code_a_command_runs_is_an_error_line_with_status_1(
        tmp_path, capsys, monkeypatch, code):
    """As a --rnn layer whose cell calls sys.exit(0) while training: status 0 would read as a
    pass, and the command would end without a word."""
    def exits(config, log=print, layer_file=None, pairs_file=None):
        sys.exit(code)                                  # the line the message names
    monkeypatch.setattr("seq2seq.commands.train.train", exits)
    monkeypatch.delenv("MINIGRAD_DEBUG", raising=False)
    assert main(["train", *TINY, "--out", str(tmp_path)]) == 1
    line = one_error_line(capsys)
    shown = "" if code is None else repr(code)
    assert line.startswith(f"error: {__file__}, line ") and line.endswith(
        f"called sys.exit({shown}): the command did not finish")


@pytest.mark.parametrize("args, environment", [(["--debug", "train"], "0"),
                                               (["train", "--debug"], ""),
                                               (["train"], "1")])
def test_debug_flag_or_environment_reraises(tmp_path, monkeypatch, args, environment):
    monkeypatch.setenv("MINIGRAD_DEBUG", environment)
    with pytest.raises(ValueError, match="lr must be a finite number"):
        main([*args, *TINY, "--lr", "nan", "--out", str(tmp_path / "r")])


def test_a_huge_size_names_the_setting(tmp_path, capsys):
    """Refused from the settings, before any array is made (seq2seq/commands/sizes.py), naming the
    setting."""
    assert main(["train", *TINY, "--hidden-size", str(10**20), "--out", str(tmp_path)]) == 1
    assert one_error_line(capsys).startswith(f"error: --hidden-size {10**20} is too large: ")


# ---- what a terminal shows ------------------------------------------------------------------

def run_module(*args, env=None):
    environment = {k: v for k, v in os.environ.items() if k != "MINIGRAD_DEBUG"}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=environment)


def test_no_traceback_reaches_the_terminal(tmp_path):
    result = run_module("seq2seq", "compare-lengths", "--hidden-size", "0", "--out",
                        str(tmp_path))
    assert result.returncode == 1
    assert result.stderr == "error: --hidden-size must be an integer >= 1, got 0\n"


def test_minigrad_debug_shows_the_traceback(tmp_path):
    result = run_module("seq2seq", "compare-lengths", "--hidden-size", "0", "--out",
                        str(tmp_path), env={"MINIGRAD_DEBUG": "1"})
    assert result.returncode == 1
    assert result.stderr.startswith("Traceback (most recent call last):")
    assert result.stderr.rstrip().endswith("hidden_size must be an integer >= 1, got 0")


# ---- the other tools ------------------------------------------------------------------------

def test_the_other_entry_points_report_one_line(tmp_path, capsys, monkeypatch):
    import minigrad.grade.grader as grader
    from minigrad.__main__ import main as minigrad_main
    from minigrad.grade.grader import main as grade_main
    from minigrad.viz.__main__ import main as viz_main
    from attention.__main__ import main as attention_main

    monkeypatch.delenv("MINIGRAD_DEBUG", raising=False)
    assert attention_main(["demo", "--seed", "-1", "--out", str(tmp_path)]) == 1
    assert "--seed must be an integer >= 0, got -1" in one_error_line(capsys)
    assert minigrad_main(["demo", "--steps", "-1"]) == 1
    assert "--steps must be an integer >= 0, got -1" in one_error_line(capsys)
    assert viz_main(["render", str(tmp_path / "no.dot"), "--out", str(tmp_path / "x.svg")]) == 1
    assert "no.dot" in one_error_line(capsys)

    def crash(*args):
        raise IndexError("list index out of range")
    monkeypatch.setattr(grader, "grade", crash)
    from minigrad.grade import EXERCISES
    assert grade_main(EXERCISES, "python -m minigrad.grade", ["gru_cell", "x.py"]) == 1
    assert one_error_line(capsys) == "error: IndexError: list index out of range"
    with pytest.raises(IndexError):
        grade_main(EXERCISES, "python -m minigrad.grade", ["--debug", "gru_cell", "x.py"])


@pytest.mark.parametrize("args, words", [
    (["seq2seq", "train", "--lr", "abc"], "--lr: invalid float value: 'abc'"),
    (["seq2seq", "train", "--batch-size", "1.5"], "--batch-size: invalid int value: '1.5'"),
    (["seq2seq", "evaluate"], "required: run"),
    (["seq2seq"], "required: command"),
    (["attention"], "required: command"),
    (["minigrad.viz"], "required: command"),
    (["minigrad", "demo", "--steps", "x"], "--steps: invalid int value"),
    (["minigrad.grade"], "required: exercise, path"),
    (["attention.grade"], "required: exercise, path"),
    (["seq2seq.grade"], "required: exercise, path"),
])
def test_argparse_errors_are_one_line_with_status_2(args, words):
    result = run_module(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr
    assert lines[0].endswith("--help)")             # where to look, on the same line


def test_a_closed_stdout_ends_the_command_quietly_with_status_0(tmp_path):
    # `python -m seq2seq translate ... | head -0`: the reader had what it wanted; no error line.
    code = ("import sys; from minigrad.command import run\n"
            "def command():\n"
            "    for _ in range(100000):\n"
            "        print('x' * 100)\n"
            "sys.exit(run(command))\n")
    done = subprocess.run(["bash", "-c", f"{sys.executable} -c \"{code}\" | head -0; "
                           "exit ${PIPESTATUS[0]}"], capture_output=True, text=True,
                          cwd=str(ROOT))
    assert (done.returncode, done.stderr) == (0, "")


def test_draw_and_explore_refuse_a_step_past_the_last_one_decoding_reaches(run_folder,
                                                                         tmp_path, capsys):
    limit = 2 * 4 + 10                                  # 2 S + 10 for S = 4 source tokens
    for command, out in (("draw", "x.svg"), ("explore", "x.html")):
        argv = [command, str(run_folder), "--sentence", "1234", "--out", str(tmp_path / out)]
        assert main([*argv, "--step", str(limit)]) == 1
        assert (f"--step {limit} is past the last step decoding of '1234' can reach: it stops "
                f"after {limit} steps") in one_error_line(capsys)
        assert main([*argv, "--step", str(limit - 1)]) == 0
        capsys.readouterr()


def test_a_step_past_the_end_of_the_translation_is_refused_naming_its_length(run_folder):
    from seq2seq.commands.draw import decoder_step
    from seq2seq.translator import load_translator
    translator, _ = load_translator(run_folder)
    bias = translator.model.decoder.out.bias
    bias.data = bias.data.copy()
    bias.data[translator.tgt_vocab.eos_id] = 1e3        # it writes <eos> at once: 0 tokens
    assert decoder_step(translator, "1234", 0)["token"] == translator.tgt_vocab.eos_id
    with pytest.raises(ValueError, match=r"^step 1 is past the end of the translation of "
                       r"'1234': it is 0 tokens long and writes <eos> at step 0, so the steps "
                       r"are 0 to 0$"):
        decoder_step(translator, "1234", 1)
    with pytest.raises(ValueError, match=r"^step 100 is past the end of the translation .* so "
                       r"the steps are 0 to 0$"):      # its end, not the limit of 2 S + 10
        decoder_step(translator, "1234", 100)


# ---- a RUN that is not there: named as a run folder, not as an errno --------------------------

@pytest.mark.parametrize("command", [["translate", "RUN", "x"], ["evaluate", "RUN"],
                                     ["draw", "RUN", "--out", "OUT.svg"],
                                     ["explore", "RUN", "--out", "OUT.html"]])
def test_a_missing_run_folder_is_named_as_one(command, tmp_path, capsys):
    run = tmp_path / "nosuch"
    argv = [str(run) if a == "RUN" else str(tmp_path / a) if a.startswith("OUT") else a
            for a in command]
    assert main(argv) == 1
    assert one_error_line(capsys) == (f"error: {run}: no such run folder (train one with: "
                                      f"python -m seq2seq train --out {run} ...)")


def test_a_folder_without_a_checkpoint_is_named_as_no_run(tmp_path, capsys):
    assert main(["evaluate", str(tmp_path)]) == 1
    assert one_error_line(capsys) == (f"error: {tmp_path}: no checkpoint.npz, so not a run "
                                      f"folder (train one with: python -m seq2seq train --out "
                                      f"{tmp_path} ...)")


def test_a_pairs_line_of_spaces_is_quoted_as_it_is_and_the_tab_shown_as_backslash_t(tmp_path,
                                                                                      capsys):
    pairs = tmp_path / "ws.tsv"
    pairs.write_text("   \n", encoding="utf-8")
    assert main(["train", "--task", str(pairs), "--out", str(tmp_path / "run")]) == 1
    assert one_error_line(capsys) == (f"error: {pairs}:1: expected 'source\\ttarget', found no "
                                      "'\\t' in '   '; if the columns are separated by "
                                      "something else, give it with --sep")


def test_a_pairs_line_separated_by_spaces_names_sep_with_a_space(tmp_path, capsys):
    pairs = tmp_path / "spaces.tsv"
    pairs.write_text("abc cba\n", encoding="utf-8")
    assert main(["train", "--task", str(pairs), "--out", str(tmp_path / "run")]) == 1
    assert one_error_line(capsys) == (f"error: {pairs}:1: expected 'source\\ttarget', found no "
                                      "'\\t' in 'abc cba'; if the columns are separated by "
                                      "something else, give it with --sep ' '")


def test_sep_written_as_backslash_t_is_a_tab(tmp_path, capsys):
    """The help shows the default as '\\t'; typed so, a shell passes the two characters."""
    pairs = tmp_path / "tabs.tsv"
    pairs.write_text("".join(f"{n}\t{str(n)[::-1]}\n" for n in range(100, 160)),
                     encoding="utf-8")
    out = tmp_path / "run"
    assert main(["train", "--task", str(pairs), "--sep", "\\t", "--epochs", "1",
                 "--hidden-size", "8", "--embed-size", "4", "--no-progress", "--out",
                 str(out)]) == 0
    assert main(["evaluate", str(out), "--task", str(pairs), "--sep", "\\t"]) == 0


@pytest.mark.parametrize("plot, words", [
    ("nodir/h.png", "cannot draw 'nodir/h.png': no directory 'nodir'"),
    ("h.txt", "cannot draw h.txt: .txt is not a picture format matplotlib writes"),
    ("mine.png", "mine.png exists and no earlier figure wrote it; pass --overwrite"),
])
def test_translate_refuses_a_plot_it_cannot_write_before_it_translates(run_folder, tmp_path,
                                                                       monkeypatch, capsys,
                                                                       plot, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.png").write_bytes(b"my picture")
    assert main(["translate", str(run_folder), "12", "--plot", plot]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1    # nothing translated
    assert captured.err.startswith("error: ") and words in captured.err
    assert (tmp_path / "mine.png").read_bytes() == b"my picture"


@pytest.mark.parametrize("option, value", [("--num-examples", "100"), ("--seed", "7")])
def test_evaluate_refuses_the_options_of_a_generated_task_without_one(run_folder, capsys,
                                                                      option, value):
    """Without a built-in --task, evaluate scores the run's own held-out pairs: a count or a
    seed of pairs to generate would be ignored, so it is refused, as --min-len is."""
    assert main(["evaluate", str(run_folder), option, value]) == 1
    from seq2seq.data.tasks import TASKS
    assert one_error_line(capsys) == (
        f"error: {option} chooses the pairs a built-in --task generates ({', '.join(TASKS)}); "
        f"without one, evaluate scores the run's own held-out pairs: leave it out, or give "
        f"--task")
    assert main(["evaluate", str(run_folder), "--task", "copy", option, value]) == 0
