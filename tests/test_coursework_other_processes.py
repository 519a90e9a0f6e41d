"""The graded code may not open another process's files under /proc: the grader's memory holds
the stored right answers (/proc/PID/maps says where, /proc/PID/mem holds them). And the grader
marks itself not dumpable while the graded code runs, so that even a file opened by a route the
audit hook does not see (the C library's open, through ctypes) is refused by the kernel."""

import ctypes
import os
import sys

import pytest

from minigrad.grade import SolutionFailed, grade, process

from conftest import honest_layer_norm_file as solution

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")


@linux
@pytest.mark.parametrize("where", ["{pid}/maps", "{pid}/mem", "{pid}/task/{pid}/mem",
                                   "{pid}/root/proc/{pid}/mem", "{pid}/cwd",
                                   "{pid}/fd/0", "{pid}/environ"])
def test_opening_the_graders_files_under_proc_is_refused(tmp_path, where):
    path = solution(tmp_path, f"""
        try:
            open("/proc/" + "{where}".format(pid={os.getpid()}), "rb").close()
        except OSError:
            pass
    """)
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm", path)
    message = str(caught.value)
    assert message.startswith(f"layer_norm: your code opens /proc/{os.getpid()}"), message
    assert "another process's" in message


@linux
def test_a_relative_path_from_the_graders_proc_folder_is_refused(tmp_path):
    path = solution(tmp_path, f"""
        import os

        try:
            os.chdir("/proc/{os.getpid()}")
            open("maps", "rb").close()
        except OSError:
            pass
    """)
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm", path)
    assert str(caught.value).startswith(f"layer_norm: your code opens /proc/{os.getpid()}")


@linux
def test_its_own_proc_files_stay_open_to_the_graded_code(tmp_path):
    path = solution(tmp_path, """
        import os

        with open("/proc/self/status") as own:
            own.read()
        with open(f"/proc/{os.getpid()}/maps") as own:
            own.read()
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


@linux
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root may open any process's memory, dumpable or not")
def test_the_graders_memory_cannot_be_opened_through_ctypes_while_it_grades(tmp_path):
    path = solution(tmp_path, f"""
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.open(b"/proc/{os.getpid()}/mem", 0)
        if fd >= 0:
            raise RuntimeError("the grader's memory is open to the graded code")
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


@linux
def test_the_grader_is_dumpable_again_after_grading(tmp_path):
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    before = prctl(3, 0, 0, 0, 0)                       # PR_GET_DUMPABLE
    with process.not_dumpable():
        assert prctl(3, 0, 0, 0, 0) == 0
    assert prctl(3, 0, 0, 0, 0) == before


@pytest.mark.parametrize("module", ["_xxsubinterpreters", "_interpreters"])
def test_a_sub_interpreter_which_the_hooks_do_not_reach_is_refused(tmp_path, module):
    pytest.importorskip(module)
    outside = tmp_path / "written_by_the_sub_interpreter.txt"
    path = solution(tmp_path, f"""
        import {module} as interpreters
        interpreters.run_string(interpreters.create(), "open({str(outside)!r}, 'w').write('x')")
        """)
    with pytest.raises(SolutionFailed, match="starts another interpreter in its process"):
        grade("layer_norm", path)
    assert not outside.exists()
