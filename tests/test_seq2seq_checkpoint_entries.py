"""Entries of a run's checkpoint that are checked before they are used: each wrong one is one
line naming the checkpoint file and the entry, and nothing in the run folder is rewritten from a
checkpoint that is then refused."""

import json

import numpy as np
import pytest

from seq2seq.commands.cli import main

from conftest import changed_run as changed


@pytest.fixture
def run(smallest_run):
    return smallest_run


def refused(folder, capsys, command="evaluate"):
    """The one-line error of `command` on the run `folder` (it must fail)."""
    args = {"evaluate": ["evaluate", str(folder)], "translate": ["translate", str(folder), "12"]}
    assert main(args[command]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_evaluate_on_a_refused_checkpoint_leaves_a_stale_report_as_it_was(run, tmp_path, capsys):
    folder = changed(run, tmp_path, lambda state: state["model"]["decoder.out.bias"].fill(np.nan))
    (folder / "report.json").write_text("{}", encoding="utf-8")        # behind the checkpoint
    err = refused(folder, capsys)
    assert "did not match" not in err and "rewritten" not in err
    assert "'model.decoder.out.bias' entry should be finite numbers" in err
    assert (folder / "report.json").read_text(encoding="utf-8") == "{}"


@pytest.mark.parametrize("make", ["fifo", "zeros", "huge"])
def test_a_report_that_is_no_file_or_too_large_is_rewritten_not_read_through(run, tmp_path,
                                                                             capsys, make):
    """A FIFO nobody writes to, a link to /dev/zero, a sparse file of 3 GB: evaluate waited
    forever, read without end, or read it all, before it compared the report."""
    import os
    folder = changed(run, tmp_path, lambda state: None)
    report = folder / "report.json"
    report.unlink()
    if make == "fifo":
        os.mkfifo(report)
    elif make == "zeros":
        report.symlink_to("/dev/zero")
    else:
        with open(report, "wb") as file:
            file.truncate(3 * 10 ** 9)
    assert main(["evaluate", str(folder)]) == 0
    assert "rewritten from the checkpoint's history" in capsys.readouterr().err
    assert report.is_file() and not report.is_symlink() and report.stat().st_size < 10 ** 5
    assert json.loads(report.read_text(encoding="utf-8"))[0]["epoch"] == 1


def test_evaluate_still_rewrites_a_stale_report_of_a_good_checkpoint(run, tmp_path, capsys):
    folder = changed(run, tmp_path, lambda state: None)
    (folder / "report.json").write_text("{}", encoding="utf-8")
    assert main(["evaluate", str(folder)]) == 0
    assert "rewritten from the checkpoint's history" in capsys.readouterr().err
    assert json.loads((folder / "report.json").read_text(encoding="utf-8")) != {}


@pytest.mark.parametrize("command", ["evaluate", "translate"])
def test_a_padding_index_other_than_pads_is_refused(run, tmp_path, capsys, command):
    folder = changed(run, tmp_path, lambda state: state["model_config"].update(padding_idx=7))
    err = refused(folder, capsys, command)
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that "
                          "this version can load: its 'model_config' entry: ")
    assert "padding_idx is 7, but <pad> is token 0 of the src vocabulary" in err


@pytest.mark.parametrize("value", ["x", 0, True, 2.5])
def test_a_longest_source_that_is_no_count_of_tokens_is_refused(run, tmp_path, capsys, value):
    folder = changed(run, tmp_path, lambda state: state.update(longest_source=value))
    err = refused(folder, capsys, "translate")
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that "
                          "this version can load: its 'longest_source' entry should be None or "
                          f"a whole number of tokens, at least 1, found {value!r}")


def test_a_split_hashed_another_way_is_refused_naming_the_checkpoint_file(run, tmp_path, capsys):
    folder = changed(run, tmp_path, lambda state: state["split"].update(hash="md5"))
    err = refused(folder, capsys)
    assert err == (f"error: {folder / 'checkpoint.npz'}: its 'split.hash' entry is 'md5': its "
                   "hashes were made another way than this version makes them, 'blake2b-64'\n")


@pytest.mark.parametrize("entry, value, said", [
    ("optimizer.step", "x", "state 'step' of parameter 0"),
    ("optimizer.step", -5, "state 'step' of parameter 0"),
    ("optimizer.step", 10 ** 400, "state 'step' of parameter 0"),
    ("optimizer.exp_avg", float("nan"), "state 'exp_avg' of parameter 0"),
    ("optimizer.exp_avg_sq", -1.0, "state 'exp_avg_sq' of parameter 0"),
    ("config.lr", "fast", "its 'config.lr' entry should be a finite number > 0, found 'fast'"),
    ("config.max_len", 10 ** 15, "its 'config.max_len' entry should be an integer in [1, 1000]"),
])
def test_a_resume_of_a_bad_saved_state_blames_the_file_not_the_options(
        run, tmp_path, capsys, entry, value, said):
    """train --resume takes the optimiser's state and the options not written again from the
    checkpoint: a bad value there is the file's fault, and the line says so."""
    where, name = entry.split(".")

    def change(state):
        if where == "optimizer":
            slot = state["optimizer"]["state"][0]
            slot[name] = (np.full_like(slot[name], value) if isinstance(slot[name], np.ndarray)
                          else value)
        else:
            state["config"][name] = value
    resumable = changed(run, tmp_path, change)
    assert main(["train", "--out", str(resumable), "--resume", "--epochs", "2"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {resumable}/checkpoint.npz: ")
    assert said in err


@pytest.mark.parametrize("name, value", [("lr", float("nan")), ("clip", -1.0), ("epochs", 2.5),
                                         ("dropout", 1.0)])
def test_a_saved_setting_its_option_would_refuse_is_refused_before_any_training(
        run, tmp_path, capsys, name, value):
    """A setting given again on the command line replaces the saved one, but the history keeps
    the saved one: a NaN there would be saved into a history that no JSON holds. So the saved
    settings are checked as their options are, whatever is given again, by every command."""
    folder = changed(run, tmp_path, lambda state: state["config"].update({name: value}))
    before = (folder / "checkpoint.npz").read_bytes()
    said = f"its 'config.{name}' entry should be "
    assert said in refused(folder, capsys)
    assert main(["train", "--out", str(folder), "--resume", "--epochs", "3", "--lr", "0.01"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
    assert (folder / "checkpoint.npz").read_bytes() == before


def _set(path, value):
    """A change(state) that sets state[path[0]][path[1]]... to `value`."""
    def change(state):
        holder = state
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = value
    return change


@pytest.mark.parametrize("path, value, entry, expected", [
    (["history", 0, "loss"], float("nan"), "history[0].loss", "a finite number >= 0"),
    (["history", 0, "loss"], float("inf"), "history[0].loss", "a finite number >= 0"),
    (["history", 0, "bleu"], 1.5, "history[0].bleu", "a finite number in [0, 1]"),
    (["history", 0, "epoch"], 3, "history[0].epoch", "1 (epochs are numbered from 1"),
    (["history", 0, "examples"], -1, "history[0].examples", "a whole number >= 0"),
    (["history", 0, "note"], [1.0, float("nan")], "history[0].note[1]", "a finite number"),
])
def test_a_history_that_json_cannot_hold_is_refused_and_report_kept(
        run, tmp_path, capsys, path, value, entry, expected):
    folder = changed(run, tmp_path, _set(path, value))
    report = (folder / "report.json").read_text(encoding="utf-8")
    err = refused(folder, capsys)
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint"), err
    assert f"its {entry!r} entry should be {expected}" in err, err
    assert (folder / "report.json").read_text(encoding="utf-8") == report
    json.loads(report)


def test_a_history_without_a_loss_is_refused(run, tmp_path, capsys):
    folder = changed(run, tmp_path, lambda state: state["history"][0].pop("loss"))
    assert "no 'history[0].loss' entry" in refused(folder, capsys)


def test_the_report_is_never_written_with_a_bare_nan(tmp_path):
    from seq2seq.commands import reports
    with pytest.raises(ValueError, match="not JSON compliant"):
        reports.write_report(tmp_path, [{"epoch": 1, "loss": float("nan")}])
    assert not (tmp_path / "report.json").exists()


@pytest.mark.parametrize("value, entry, expected", [
    ("p.txt", "task_file", 'None or a dict {"path": ..., "sha256": ...}'),
    ({"path": "p.txt", "sha256": "0" * 64}, "task_file.path", "an absolute path (a str)"),
    ({"path": "/data/p.txt", "sha256": "0" * 63}, "task_file.sha256", "a sha256 in 64 hex"),
    ({"path": "/data/p.txt", "sha256": "G" * 64}, "task_file.sha256", "a sha256 in 64 hex")])
def test_a_task_file_that_is_no_absolute_path_and_hash_is_refused(run, tmp_path, capsys, value,
                                                                 entry, expected):
    folder = changed(run, tmp_path, lambda state: state.update(task_file=value))
    assert f"its {entry!r} entry should be {expected}" in refused(folder, capsys)
