"""A second run of an experiment keeps the first one's results whole until its own are ready:
killed (SIGKILL) once its first model has started, it leaves the earlier results byte for byte,
and the next run (which clears what the killed one left) replaces them as usual."""

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from seq2seq.papers import swap

ROOT = Path(__file__).resolve().parent.parent
needs_sigkill = pytest.mark.skipif(os.name == "nt", reason="SIGKILL")

# Runs `python -m seq2seq ARGV`, or, with "heads" or "explanation" first, a tiny head-alignments
# or uniform-and-seeds; with "kill" first, the process kills itself (SIGKILL: nothing runs after
# it) in its first model's first epoch.
RUNNER = """
import os, signal, sys
from seq2seq.commands import train
from seq2seq.papers import budget

if sys.argv[1] == "kill":
    def kill(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)
    train.run_epoch = budget.run_epoch = kill
if sys.argv[2] == "heads":
    from seq2seq.commands.arch import with_defaults
    from seq2seq.commands.train import TrainConfig
    from seq2seq.papers.heads import head_alignments
    out = sys.argv[3]
    configs = {f"seed-{s}": with_defaults(TrainConfig(
        task="toy-ja-en", arch="transformer", out=f"{out}/seed-{s}", num_examples=120,
        max_len=6, epochs=1, d_model=8, heads=2, layers=1, d_ff=16, seed=s, progress=False))
        for s in (0, 1)}
    head_alignments(out, seeds=2, epochs=1, n_held_out=20, configs=configs)
elif sys.argv[2] == "explanation":
    from seq2seq.papers.explanation import uniform_and_seeds
    uniform_and_seeds(sys.argv[3], seeds=2, num_examples=150, n_held_out=40, hidden_size=8,
                      epochs=1, max_len=5)
else:
    from seq2seq.commands.cli import main
    sys.exit(main(sys.argv[2:]))
"""

EXPERIMENTS = {
    "compare-architectures": ["compare-architectures", "--updates", "3", "--tasks",
                              "reverse,copy", "--num-examples", "60"],
    "compare-positions": ["compare-positions", "--seeds", "0,1", "--epochs", "1",
                          "--num-examples", "120", "--max-len", "5", "--test-max-len", "7",
                          "--longer-examples", "20"],
    "head-alignments": ["heads"],
    "uniform-and-seeds": ["explanation"],     # its models read a pairs file it writes
}


def run(how, argv, out):
    argv = [*argv, str(out)] if argv[0] in ("heads", "explanation") else [*argv, "--out",
                                                                          str(out)]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", RUNNER, how, *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def files_of(folder):
    """Every file under `folder` but the locks: {relative path: bytes}."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".lock"}


@needs_sigkill
@pytest.mark.parametrize("experiment", sorted(EXPERIMENTS))
def test_a_rerun_killed_in_its_first_model_leaves_the_earlier_results_whole(tmp_path,
                                                                            experiment):
    out = tmp_path / "out"
    done = run("run", EXPERIMENTS[experiment], out)
    assert done.returncode == 0, done.stderr
    before = files_of(out)
    assert f"{experiment}.json" in before and any(p.endswith("checkpoint.npz") for p in before)

    killed = run("kill", EXPERIMENTS[experiment], out)
    assert killed.returncode == -9, (killed.returncode, killed.stderr)
    assert {p: data for p, data in files_of(out).items() if not p.startswith(".")} == before

    again = run("run", EXPERIMENTS[experiment], out)          # clears what the killed run left
    assert again.returncode == 0, again.stderr
    assert "removed the unfinished run" in again.stdout + again.stderr
    assert set(files_of(out)) == set(before)                    # nothing of the killed run left
    assert json.loads((out / f"{experiment}.json").read_text())["experiment"] == experiment


class Killed(BaseException):
    """Stands for SIGKILL: nothing of the swap runs after it."""


def old_and_new(out):
    """An experiment's earlier files in `out`, and a new run of it made in out/.next."""
    for folder, mark in ((out, "old"), (swap.begin(out), "new")):
        for name in ("a", "b"):
            (folder / name).mkdir(exist_ok=True)
            (folder / name / "checkpoint.npz").write_text(f"{mark} {name}")
        (folder / "result.json").write_text(mark)
    (out / "result.png").write_text("old")                     # the new run draws no figure
    return ["a/checkpoint.npz", "b/checkpoint.npz", "result.json", "result.png"]


@pytest.mark.parametrize("kill_at", range(7))   # .ready, 2 per folder, result.json
def test_a_swap_stopped_at_any_step_is_finished_by_the_next_command(tmp_path, monkeypatch,
                                                                    kill_at):
    out = tmp_path / "out"
    out.mkdir()
    earlier = old_and_new(out)
    calls = []
    replace = os.replace

    def stopping_replace(source, target):
        calls.append(target)
        if len(calls) > kill_at:
            raise Killed
        replace(source, target)
    monkeypatch.setattr(swap.os, "replace", stopping_replace)
    with contextlib.suppress(Killed):
        swap.swap_in(out, earlier)
    monkeypatch.setattr(swap.os, "replace", replace)
    ready = not (out / ".next").exists() or (out / ".next" / ".ready").exists()
    if not ready:                                       # stopped before: the earlier run whole
        assert files_of(out)["result.json"] == b"old" and (out / "result.png").exists()
    swap.finish(out, lambda line: None)
    expected = {"a/checkpoint.npz": b"new a", "b/checkpoint.npz": b"new b", "result.json": b"new"}
    assert files_of(out) == (expected if ready else {**expected, **{
        f: f"old {f[0]}".encode() for f in earlier[:2]}, "result.json": b"old",
        "result.png": b"old"})
    assert sorted(p.name for p in out.iterdir()) == (["a", "b", "result.json"] if ready else
                                                     ["a", "b", "result.json", "result.png"])


@pytest.mark.parametrize("make", ["folder", "ready", "symlink", "file", "replaced",
                                  "replaced-symlink"])
def test_a_next_or_replaced_the_swap_did_not_make_is_refused_and_left_whole(tmp_path, make):
    """A user's own .next (or .replaced) in an experiment's --out was removed, or swapped into
    the results (with a .ready of its own), or followed through a symbolic link."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (elsewhere / "thesis.txt").write_text("mine")
    (out / "data.csv").write_text("mine")
    if make in ("folder", "ready"):
        (out / ".next").mkdir()
        (out / ".next" / "data.csv").write_text("theirs")
        if make == "ready":
            (out / ".next" / ".ready").write_text("[]")
    elif make == "symlink":
        (out / ".next").symlink_to(elsewhere)
    elif make == "file":
        (out / ".next").write_text("mine")
    else:
        earlier = old_and_new(out)                      # a real swap stopped once it began
        (out / ".next" / ".ready").write_text(json.dumps(earlier))
        if make == "replaced":
            shutil.rmtree(out / ".next")                # no .next: the .replaced is the user's
            (out / ".replaced").mkdir()
            (out / ".replaced" / "thesis.txt").write_text("mine")
        else:
            (out / ".replaced").symlink_to(elsewhere)
    before = files_of(tmp_path)
    with pytest.raises(ValueError, match=r"is not an experiment's unfinished run .* move it out"):
        swap.finish(out, lambda line: None)
    assert files_of(tmp_path) == before


def test_a_next_killed_as_it_was_made_is_removed_by_the_next_command(tmp_path):
    out = tmp_path / "out"
    (out / ".next").mkdir(parents=True)                 # empty: no .begun written yet
    swap.finish(out, lambda line: None)
    assert not (out / ".next").exists()
