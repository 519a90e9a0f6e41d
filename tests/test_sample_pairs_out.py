"""examples/numbers.py's --out: a regular file or nothing yet. A device, a FIFO or a symlink to
nothing is refused in one line (reading /dev/zero would never end, a FIFO would block, and
replacing either would put a file where it was); --check reads no more than it needs;
--overwrite keeps the file's permission bits, and a symlink stays a symlink."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "examples" / "numbers.tsv"


def numbers_script(*args, cwd):
    return subprocess.run([sys.executable, str(ROOT / "examples" / "numbers.py"), *args],
                          cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("flags", [["--check"], [], ["--overwrite"]])
def test_a_device_as_out_is_refused_without_reading_it_or_replacing_it(tmp_path, flags):
    device = tmp_path / "zero"
    device.symlink_to("/dev/zero")          # a link, so the device node itself is never at risk
    done = numbers_script("--out", str(device), *flags, cwd=tmp_path)
    assert done.returncode == 1 and done.stderr == (
        f"error: --out {device} is a device: name a file\n")
    assert device.is_symlink() and os.readlink(device) == "/dev/zero"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("flags", [["--check"], ["--overwrite"]])
def test_a_fifo_as_out_is_refused_at_once_and_left_a_fifo(tmp_path, flags):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = numbers_script("--out", str(fifo), *flags, cwd=tmp_path)   # times out if it blocks
    assert done.returncode == 1 and done.stderr == f"error: --out {fifo} is a FIFO: name a file\n"
    assert fifo.is_fifo()


def test_a_dangling_symlink_as_out_is_refused_and_left_as_it_is(tmp_path):
    link = tmp_path / "numbers.tsv"
    link.symlink_to(tmp_path / "nowhere.tsv")
    done = numbers_script("--out", str(link), "--overwrite", cwd=tmp_path)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: --out {link} is a symlink to nothing")
    assert link.is_symlink() and not (tmp_path / "nowhere.tsv").exists()


def test_a_symlink_to_a_file_is_written_through_and_stays_a_symlink(tmp_path):
    target = tmp_path / "real.tsv"
    target.write_bytes(b"old\n")
    link = tmp_path / "numbers.tsv"
    link.symlink_to(target)
    assert numbers_script("--out", str(link), "--overwrite", cwd=tmp_path).returncode == 0
    assert link.is_symlink() and target.read_bytes() == FILE.read_bytes()


def test_overwrite_keeps_the_files_permission_bits(tmp_path):
    out = tmp_path / "numbers.tsv"
    out.write_bytes(b"mine\n")
    out.chmod(0o600)
    assert numbers_script("--out", str(out), "--overwrite", cwd=tmp_path).returncode == 0
    assert out.read_bytes() == FILE.read_bytes() and (out.stat().st_mode & 0o777) == 0o600


def test_check_reads_no_more_than_one_byte_past_the_expected_size(tmp_path, monkeypatch):
    import importlib.util
    spec = importlib.util.spec_from_file_location("numbers_script", ROOT / "examples" /
                                                  "numbers.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    out = tmp_path / "numbers.tsv"
    out.write_bytes(FILE.read_bytes() * 3)          # a file far longer than the expected one
    sizes = []
    real = script._read_at_most
    monkeypatch.setattr(script, "_read_at_most",
                        lambda path, size: sizes.append(size) or real(path, size))
    assert script.main(["--out", str(out), "--check"]) == 1
    assert sizes == [FILE.stat().st_size + 1]
    if os.path.exists("/dev/zero"):                 # endless: only a bounded read returns
        assert script._read_at_most("/dev/zero", 10) == bytes(10)
