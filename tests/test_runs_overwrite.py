"""--overwrite never destroys a run: a new run that fails, exits or is killed before its first
epoch is saved leaves the earlier run whole (checkpoint and report byte for byte), and a kill at
any later point leaves one checkpoint, the old or the new. The faults are real: a process killed
with SIGKILL at chosen points, a layer file that calls os._exit(0)."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import minigrad
from minigrad.files import stale_temporaries
from seq2seq.commands import train as train_module
from seq2seq.commands.cli import main
from seq2seq.commands.train import TrainConfig, train

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "reference" / "minigrad_reference.py"
TINY = ["--task", "reverse", "--num-examples", "60", "--min-len", "3", "--max-len", "5",
        "--embed-size", "4", "--hidden-size", "8", "--epochs", "1", "--no-progress"]
needs_sigkill = pytest.mark.skipif(os.name == "nt", reason="SIGKILL")

# Layer files that cannot train: each must leave the earlier run as it was.
BROKEN = {
    "syntax error": "def (:\n",
    "sys.exit": "import sys\nsys.exit(0)\n",
    "ignores the mask": """
        from tests.reference.minigrad_reference import GRU as Base

        class GRU(Base):
            def forward(self, x, state=None, mask=None):
                return super().forward(x, state)
        """,
    "wrong state shape": """
        from tests.reference.minigrad_reference import GRU as Base

        class GRU(Base):
            def cell(self, x, h):
                return super().cell(x, h)[:, :1]
        """,
}
EXITS = {
    "os._exit at import": "import os\nos._exit(0)\n",
    "os._exit in cell": """
        import os
        from tests.reference.minigrad_reference import GRU as Base

        class GRU(Base):
            def cell(self, x, h):
                os._exit(0)
        """,
}


def quiet(*args):
    pass


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished one-epoch run; tests copy it before changing anything."""
    out = tmp_path_factory.mktemp("runs") / "run"
    assert main(["train", *TINY, "--out", str(out)]) == 0
    return out


@pytest.fixture
def earlier(finished, tmp_path):
    shutil.copytree(finished, tmp_path / "run")
    return tmp_path / "run"


def files_of(folder):
    """The run's files and their bytes (the lock left out)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != ".lock"}


def one_error_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def layer(tmp_path, source):
    path = tmp_path / "layer.py"
    path.write_text(textwrap.dedent(source))
    return path


# ---- a new run that fails before its first epoch -------------------------------------------

def test_overwrite_that_runs_out_of_memory_keeps_the_earlier_run(earlier, monkeypatch, capsys):
    def too_large(*args, **kwargs):
        raise MemoryError("Unable to allocate 149. GiB for an array")
    monkeypatch.setattr(train_module, "Seq2Seq", too_large)    # memory the estimate did not see
    before = files_of(earlier)
    assert main(["train", *TINY, "--out", str(earlier), "--overwrite", "--hidden-size",
                 "48"]) == 1
    out, err = capsys.readouterr()
    assert "out of memory" in one_error_line(err)
    assert "stays until this run's first epoch is saved" in out
    assert files_of(earlier) == before


def test_overwrite_with_a_size_that_cannot_fit_keeps_the_earlier_run(earlier, capsys):
    before = files_of(earlier)
    assert main(["train", *TINY, "--out", str(earlier), "--overwrite", "--hidden-size",
                 "100000"]) == 1
    _, err = capsys.readouterr()
    assert "--hidden-size 100000 is too large" in one_error_line(err)
    assert files_of(earlier) == before


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_overwrite_with_a_broken_layer_file_keeps_the_earlier_run(earlier, tmp_path, capsys,
                                                                  kind):
    path = layer(tmp_path, BROKEN[kind])
    before = files_of(earlier)
    assert main(["train", *TINY, "--out", str(earlier), "--overwrite", "--rnn",
                 f"{path}:GRU"]) == 1
    one_error_line(capsys.readouterr().err)
    assert files_of(earlier) == before
    assert main(["evaluate", str(earlier), "--json"]) == 0


@pytest.mark.parametrize("kind", sorted(EXITS))
def test_a_layer_that_ends_the_process_is_an_error_and_the_earlier_run_stays(earlier, tmp_path,
                                                                            kind):
    path = layer(tmp_path, EXITS[kind])
    before = files_of(earlier)
    done = subprocess.run([sys.executable, "-m", "seq2seq", "train", *TINY, "--out",
                           str(earlier), "--overwrite", "--rnn", f"{path}:GRU"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    line = one_error_line(done.stderr)
    assert f"--rnn {path}:GRU: the file ended the process (exit status 0)" in line
    assert files_of(earlier) == before


# ---- a new run killed at any point -----------------------------------------------------------

# The child trains with --overwrite, and kills itself (SIGKILL: nothing runs after it) at one
# point of its first save.
KILLER = """
import os, signal, sys
import minigrad.files
from seq2seq.commands import cli, reports, train

point = sys.argv[1]

def kill(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

if point == "in the first epoch":
    train.run_epoch = kill
elif point == "before the checkpoint's rename":
    replace = os.replace
    def killing_replace(source, target):
        if str(target).endswith("checkpoint.npz"):
            kill()
        replace(source, target)
    minigrad.files.os.replace = killing_replace
elif point == "after the checkpoint's rename":
    reports.write_report = kill
cli.main(sys.argv[2:])
"""


def killed_at(point, argv):
    done = subprocess.run([sys.executable, "-c", KILLER, point, *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -9, (done.returncode, done.stderr)


@needs_sigkill
@pytest.mark.parametrize("point", ["in the first epoch", "before the checkpoint's rename"])
def test_overwrite_killed_before_its_checkpoint_is_renamed_leaves_the_earlier_run(earlier,
                                                                                  point):
    before = files_of(earlier)
    killed_at(point, ["train", *TINY, "--out", str(earlier), "--overwrite", "--seed", "7"])
    assert {name: data for name, data in files_of(earlier).items()
            if name not in stale_temporaries(earlier)} == before
    assert main(["evaluate", str(earlier), "--json"]) == 0


@needs_sigkill
def test_overwrite_killed_after_the_checkpoints_rename_leaves_the_new_run(earlier, capsys):
    killed_at("after the checkpoint's rename",
              ["train", *TINY, "--out", str(earlier), "--overwrite", "--seed", "7"])
    state = minigrad.load(earlier / "checkpoint.npz")
    assert state["config"]["seed"] == 7 and len(state["history"]) == 1      # the new run
    old = json.loads((earlier / "report.json").read_text())
    assert old != state["history"]          # the earlier run's report, until the next command
    assert main(["evaluate", str(earlier), "--json"]) == 0
    assert json.loads((earlier / "report.json").read_text()) == state["history"]
    assert "rewritten from the checkpoint" in capsys.readouterr().err


@needs_sigkill
def test_a_first_run_killed_after_its_checkpoints_rename_gets_its_report_on_resume(tmp_path):
    out = tmp_path / "run"
    killed_at("after the checkpoint's rename", ["train", *TINY, "--out", str(out)])
    assert (out / "checkpoint.npz").is_file() and not (out / "report.json").exists()
    lines = []
    train(TrainConfig(out=str(out), resume=True, epochs=1, task="reverse", num_examples=60,
                      min_len=3, max_len=5, embed_size=4, hidden_size=8, progress=False),
          log=lines.append)
    history = minigrad.load(out / "checkpoint.npz")["history"]
    assert json.loads((out / "report.json").read_text()) == history and len(history) == 1
    assert any("rewritten from the checkpoint" in line for line in lines)


def test_overwrite_removes_the_earlier_runs_layer_copy_once_its_checkpoint_is_replaced(tmp_path):
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text(REFERENCE.read_text())
    second.write_text(REFERENCE.read_text() + "\n# another file\n")
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out), "--rnn", f"{first}:GRU"]) == 0
    (out / "notes-12345678.py").write_text("# the user's, not a copy\n")
    assert main(["train", *TINY, "--out", str(out), "--rnn", f"{second}:GRU",
                 "--overwrite"]) == 0
    digest = minigrad.load(out / "checkpoint.npz")["rnn"]["sha256"]
    assert sorted(p.name for p in out.glob("*.py")) == ["notes-12345678.py",
                                                        f"second-{digest[:8]}.py"]
