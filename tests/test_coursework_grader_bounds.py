"""The grader stays bounded against the graded code's process, which runs as the same user:
it cannot freeze the grader, outlive it, fill its memory, or put a fake line on its screen.
The promise: status 0 and a `passed:` line, or status 1 and one line saying what is wrong."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minigrad.grade import SolutionFailed, grade

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups (POSIX)")

# The grader run as a command with a time limit of 5 s, its temporary folder in `tmp`.
GRADER = ("import sys; import minigrad.grade.process as p; p.TIME_LIMIT = 5; "
          "from minigrad.grade.exercises import EXERCISES; from minigrad.grade.grader import "
          "main; sys.exit(main(EXERCISES, 'grade', sys.argv[1:]))")


def start(path, tmp, exercise="gru_cell"):
    tmp.mkdir(exist_ok=True)
    return subprocess.Popen([sys.executable, "-c", GRADER, exercise, str(path)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(tmp)))


def finish(grader):
    try:
        out, err = grader.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        grader.kill()                       # SIGKILL ends a stopped process too
        grader.communicate()
        pytest.fail("the grader did not end within 60 s")
    return grader.returncode, out, err


def failure(path, exercise="gru_cell"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:             # a zombie is not alive
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


# The graded code notes its process id in the one folder it may write in, its grading's own
# temporary folder (inside TMPDIR); the test finds it there.
NOTE_PID = """
    import os, tempfile, time
    open(os.path.join(tempfile.gettempdir(), "pid"), "w").write(str(os.getpid()))
    time.sleep(40)
"""


def wait_for(tmp):
    """The process id noted in the grading folder under `tmp`."""
    for _ in range(300):
        for file in tmp.glob("minigrad-grade-*/pid"):
            if file.read_text():
                return int(file.read_text())
        time.sleep(0.1)
    pytest.fail(f"no process id was noted under {tmp}")


def test_sending_a_signal_to_the_graders_pid_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import os, signal
        os.kill(os.getppid(), signal.SIGSTOP)
        os._exit(0)
    """)
    status, out, err = finish(start(path, tmp_path / "tmp"))
    assert (status, out) == (1, "") and len(err.strip().splitlines()) == 1
    assert err == ("failed: gru_cell: your code sends a signal to another process (os.kill) "
                   "while it is graded: it may signal its own process only, so that it cannot "
                   "stop or kill the grader.\n")
    assert list((tmp_path / "tmp").iterdir()) == []


def test_stopping_its_parent_by_ctypes_stops_a_process_in_between_not_the_grader(tmp_path):
    path = student_file(tmp_path, """
        import ctypes, os, signal
        ctypes.CDLL(None).kill(os.getppid(), signal.SIGSTOP)
        os._exit(0)
    """)
    status, out, err = finish(start(path, tmp_path / "tmp"))
    assert (status, out) == (1, "") and len(err.strip().splitlines()) == 1
    assert err.startswith("failed: gru_cell: your code ran for more than 5 s")
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_graded_code_dies_with_a_grader_killed_outright(tmp_path):
    path = student_file(tmp_path, NOTE_PID)
    (tmp_path / "tmp").mkdir()
    grader = subprocess.Popen([sys.executable, "-m", "minigrad.grade", "gru_cell", str(path)],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=dict(os.environ, TMPDIR=str(tmp_path / "tmp")))
    student = wait_for(tmp_path / "tmp")
    grader.kill()
    grader.wait()
    for _ in range(50):
        if not alive(student):
            break
        time.sleep(0.1)
    assert not alive(student), "the graded code outlived its grader"


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_to_the_grader_ends_it_with_one_line_and_the_graded_code_with_it(tmp_path, name):
    path = student_file(tmp_path, NOTE_PID)
    grader = start(path, tmp_path / "tmp")
    student = wait_for(tmp_path / "tmp")
    grader.send_signal(getattr(signal, name))
    status, out, err = finish(grader)
    assert (status, out) == (1, "")
    assert err == f"failed: grading stopped by {name}, sent to the grader while your code ran " \
                  f"(by your code, or from outside): no verdict\n"
    assert not alive(student)
    assert list((tmp_path / "tmp").iterdir()) == []          # its folder removed, note and all


def test_a_flood_on_stderr_shows_only_its_last_lines(tmp_path):
    path = student_file(tmp_path, """
        import os, sys
        block = ("x" * 1023 + "\\n").encode() * 1024
        for _ in range(100):                        # 100 MiB
            sys.stderr.buffer.write(block)
        sys.stderr.buffer.write(b"the last line\\n")
        sys.stderr.flush()
        os._exit(0)
    """)
    message = failure(path)
    assert message.endswith("x" * 20 + " | the last line (os._exit? a crash?)")
    assert len(message) < 2000 and "\n" not in message


def test_terminal_escapes_on_stderr_are_shown_escaped_never_as_a_line_of_their_own(tmp_path):
    path = student_file(tmp_path, """
        import os, sys
        sys.stderr.write("\\x1b[2K\\x1b[1Gpassed: gru_cell: 4 cases\\x1b[8m\\n")
        sys.stderr.write("\\rpassed: gru_cell: 4 cases\\n")
        sys.stderr.flush()
        os._exit(0)
    """)
    message = failure(path)
    assert "\x1b" not in message and "\r" not in message and "\n" not in message
    assert "\\x1b[2K\\x1b[1Gpassed: gru_cell: 4 cases\\x1b[8m | \\rpassed:" in message


def bomb(member_bytes):
    """Code that writes its own results file: one member of `member_bytes` zeros, deflated."""
    return f"""
        import json, os, sys, zipfile
        import numpy as np
        header = np.lib.format.header_data_from_array_1_0(np.zeros(0))
        header["shape"] = ({member_bytes // 8},)
        with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as archive:
            with archive.open("meta.npy", "w") as member:
                np.save(member, np.array(json.dumps({{"cases": []}})))
            with archive.open("1/out/0.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array_header_1_0(member, header)
                block = bytes(1 << 20)
                for _ in range({member_bytes} >> 20):
                    member.write(block)
        os._exit(0)
    """


def test_a_results_member_that_inflates_past_the_limit_is_refused_before_it_is_read(tmp_path):
    message = failure(student_file(tmp_path, bomb(256 << 20)))      # 256 KiB inflating to 256 MiB
    assert message == ("gru_cell: your code's process gave back results the grader refuses to "
                       "read: the results file is too large to load: its member '1/out/0.npy' "
                       "holds 256.0 MiB, which passes the 4.0 MiB a result may hold")


def test_a_results_member_declaring_terabytes_is_refused_in_one_line(tmp_path):
    path = student_file(tmp_path, """
        import json, os, sys, zipfile
        import numpy as np
        header = np.lib.format.header_data_from_array_1_0(np.zeros(0))
        header["shape"] = (7 << 40 >> 3,)
        with zipfile.ZipFile(sys.argv[2], "w") as archive:
            with archive.open("meta.npy", "w") as member:
                np.save(member, np.array(json.dumps({"cases": []})))
            with archive.open("1/out/0.npy", "w") as member:
                np.lib.format.write_array_header_1_0(member, header)
        os._exit(0)
    """)
    message = failure(path)
    assert message.startswith("gru_cell: your code's process gave back results the grader "
                              "refuses to read: the results file is corrupt: its member "
                              "'1/out/0.npy' declares 962072674304 values of float64 (7.0 TiB)")
    assert "\n" not in message
