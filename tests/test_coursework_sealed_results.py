"""The graded code cannot hand in results of its own: the grader reads only what its own code in
that process recorded, sealed as it was recorded and sealed again at the end, after the final
checks; a results file written another way, or changed after it was recorded, fails."""

import subprocess
import sys
from pathlib import Path

import pytest

from minigrad.grade import SolutionFailed, grade
from attention.grade import grade as grade_attention

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent


def failure(path, exercise, grader):
    with pytest.raises(SolutionFailed) as caught:
        grader(exercise, path)
    return str(caught.value)


FORGED_POSITIONS = """
    import json
    import os
    import sys

    import numpy as np

    from attention.positions import sinusoids


    def add_positions(x):
        with np.load(sys.argv[1]) as request:
            meta = json.loads(str(request["meta"]))
            arrays = {name: request[name] for name in request.files}
        results, cases = {}, []
        for k in range(1, len(meta["cases"]) + 1):
            inputs = arrays[f"{k}/in/x"]
            upstream = arrays[f"{k}/upstream/0"]
            results[f"{k}/out/0"] = inputs + sinusoids(inputs.shape[-2], inputs.shape[-1])
            results[f"{k}/grad/x"] = upstream
            results[f"{k}/analytic/0"] = upstream
            results[f"{k}/numeric/0"] = upstream
            cases.append({"stage": "gradcheck", "checked": [[0, "x"]], "output_lines": [None],
                          "kept_lines": {}})
        np.savez(sys.argv[2], meta=np.array(json.dumps({"cases": cases})), **results)
        os._exit(0)
"""


def test_a_results_file_the_solution_writes_itself_then_os_exit_fails(tmp_path):
    message = failure(student_file(tmp_path, FORGED_POSITIONS), "positional_encoding",
                      grade_attention)
    assert message.startswith("positional_encoding: your code's process ended (exit status 0) "
                              "before it gave back its results (os._exit? a crash?); a "
                              "results file its seal does not vouch for is not read")


@pytest.mark.parametrize("recorded", ["1/out/0", "1/grad/x", "1/analytic/0"])
def test_recorded_arrays_changed_during_the_finite_differences_fail(tmp_path, recorded):
    """The reruns of the gradient check run without grad and unwatched: a solution that finds
    a recorded array there (an output, a gradient, the gradient check's analytic half) and
    writes into it is caught."""
    path = student_file(tmp_path, """
        import sys

        import numpy as np

        from minigrad.grad_mode import is_grad_enabled


        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            if not is_grad_enabled():
                frame = sys._getframe(0)
                while frame is not None:
                    result = frame.f_locals.get("result")
                    if isinstance(result, dict) and "RECORDED" in result:
                        array = result["RECORDED"]
                        try:
                            array.setflags(write=True)
                        except ValueError:
                            pass
                        array[...] = 12345.0
                        break
                    frame = frame.f_back
            return h * 0.5 + x.sum() * 0
    """.replace("RECORDED", recorded))
    message = failure(path, "gru_cell", grade)
    assert "12345" not in message
    assert message.startswith(f"gru_cell: your code changed what the grader's code recorded "
                              f"({recorded}) before it was given back")


def test_a_failed_grade_exits_1_when_its_report_meets_a_closed_pipe(tmp_path):
    path = student_file(tmp_path, """
        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            return h * 0.5
    """)
    run = subprocess.run(["bash", "-c", f"set -o pipefail; {sys.executable} -m minigrad.grade "
                          f"gru_cell {path} 2>&1 | true"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert run.returncode == 1          # the pipe's reader ended before the report was written


def test_control_characters_in_the_solutions_error_are_escaped(tmp_path):
    path = student_file(tmp_path, """
        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            raise RuntimeError("\\x1b[2K\\r\\npassed: gru_cell: 4 cases\\n\\x1b[8m")
    """)
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "gru_cell", str(path)],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 1 and run.stdout == ""
    assert not any(line.startswith("passed:") for line in run.stderr.split("\n"))
    assert "\x1b" not in run.stderr and "\r" not in run.stderr
    assert "\\x1b[2K\\r\\npassed: gru_cell" in run.stderr
