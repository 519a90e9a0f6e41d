"""What the graded code may read and change, beyond the answers' known paths: only its own
folder, the project's packages and installed libraries (never a `.git` folder, never another
copy of the project); no extended attributes outside its temporary folder; no listing of
another process's files; torch's file functions checked as `open` is; the grader's own files
compared after each grading; the answers not run while the file is imported either; and an
honest forward wrapped by a decorator written as a class still graded."""

from unittest import mock

import pytest

from minigrad.grade import SolutionFailed, grade, process

from conftest import HONEST_LAYER_NORM, honest_layer_norm_file, student_file


def failure(path, exercise="layer_norm"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def test_a_file_in_a_git_folder_beside_the_solution_is_refused(tmp_path):
    pack = tmp_path / ".git" / "objects" / "pack"
    pack.mkdir(parents=True)
    (pack / "pack-1.pack").write_bytes(b"PACK")
    path = honest_layer_norm_file(tmp_path, """
        import os
        HERE = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(HERE, ".git", "objects", "pack", "pack-1.pack"), "rb") as f:
            PACKED = f.read()
    """)
    message = failure(path)
    assert message.startswith(f"layer_norm: your code reads {pack / 'pack-1.pack'}, a git "
                              f"folder's contents")
    assert message.endswith("the graded code may read only its own folder, the project's "
                            "packages and installed libraries.")


def test_listing_a_git_folder_is_refused(tmp_path):
    (tmp_path / ".git" / "objects").mkdir(parents=True)
    path = honest_layer_norm_file(tmp_path, """
        import os
        FOUND = os.listdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".git"))
    """)
    assert "a git folder's contents" in failure(path)


def test_another_copy_of_a_reference_elsewhere_is_refused(tmp_path):
    copy = tmp_path / "elsewhere" / "tests" / "reference"
    copy.mkdir(parents=True)
    (copy / "minigrad_reference.py").write_text("import numpy\n" + HONEST_LAYER_NORM)
    (tmp_path / "student").mkdir()
    path = student_file(tmp_path / "student", f"""
source = open({str(copy / "minigrad_reference.py")!r}).read()
exec(compile(source, "reference", "exec"), globals())
""")
    message = failure(path)             # named for what it is, wherever the copy lies
    assert message.startswith("layer_norm: your code opens a copy of the reference solutions "
                              "(minigrad_reference.py), an answer to this exercise")


def test_data_beside_the_solution_and_installed_libraries_may_be_read(tmp_path):
    (tmp_path / "scale.txt").write_text("1.0\n")
    path = honest_layer_norm_file(tmp_path, """
        import os
        import numpy as np
        HERE = os.path.dirname(os.path.abspath(__file__))
        SCALE = float(open(os.path.join(HERE, "scale.txt")).read())
        NUMPY_INIT = open(np.__file__).read()
        MISSING = os.path.exists("/no/such/folder/file.txt")
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


def test_extended_attributes_outside_the_temporary_folder_are_refused(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("x")
    path = honest_layer_norm_file(tmp_path, f"""
        import os
        try:
            os.setxattr({str(target)!r}, "user.mark", b"1")
        except OSError:
            pass
    """)
    assert failure(path).startswith(f"layer_norm: your code writes to {target}")


def test_listing_another_processs_files_under_proc_is_refused(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import os
        FDS = os.listdir(f"/proc/{os.getppid()}/fd")
    """)
    assert "another process's files" in failure(path)


def test_the_project_layer_norm_run_while_the_file_is_imported_is_refused(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import numpy as np
        from minigrad import Tensor
        from minigrad.nn import LayerNorm
        TABLE = LayerNorm(4)(Tensor(np.ones((2, 4))))
    """)
    message = failure(path)
    assert message.startswith("layer_norm: your file, as it is imported, runs "
                              "minigrad.nn.layer_norm.LayerNorm")


def test_torch_save_outside_the_temporary_folder_is_refused(tmp_path):
    pytest.importorskip("torch")
    path = honest_layer_norm_file(tmp_path, f"""
        import torch
        torch.save(torch.zeros(2), {str(tmp_path / "saved.pt")!r})
    """)
    assert failure(path).startswith(f"layer_norm: your code writes to {tmp_path / 'saved.pt'}")


def test_torch_from_file_shared_outside_the_temporary_folder_is_refused(tmp_path):
    pytest.importorskip("torch")
    target = tmp_path / "target.bin"
    target.write_bytes(b"\0" * 8)
    path = honest_layer_norm_file(tmp_path, f"""
        import torch
        MAPPED = torch.from_file({str(target)!r}, shared=True, size=8, dtype=torch.uint8)
    """)
    assert failure(path).startswith(f"layer_norm: your code writes to {target}")


def test_a_grader_file_written_by_c_code_fails_the_grading(tmp_path):
    package = tmp_path / "package"
    package.mkdir()
    (package / "entry.py").write_text("print('grading')\n")
    (tmp_path / "student").mkdir()
    path = honest_layer_norm_file(tmp_path / "student", f"""
        import ctypes
        import os
        libc = ctypes.CDLL(None)
        fd = libc.open({str(package / "entry.py").encode()!r}, os.O_WRONLY | os.O_TRUNC)
        libc.write(fd, b"print('passed')\\n", 16)
        libc.close(fd)
    """)
    folders = process.project_folders() + [str(package)]
    with mock.patch.object(process, "project_folders", lambda: folders):
        message = failure(path)
    assert message == (f"layer_norm: the grader's own files changed while your code was graded "
                       f"({package / 'entry.py'}): the graded code wrote into the grader. Put "
                       f"them back (git checkout, or reinstall) before grading again.")


LOGSUMEXP_DECORATED = """
import numpy as np
from minigrad import Function


class Timed:
    def __init__(self, f):
        self.f = f

    def __get__(self, obj, kind=None):
        return lambda *args, **kwargs: self.f(obj, *args, **kwargs)


class LogSumExp(Function):
    settings = ("axis", "keepdims")
    saves = ("p",)

    def __init__(self, axis=-1, keepdims=False):
        self.axis, self.keepdims = axis, keepdims

    @Timed
    def forward(self, x):
        m = np.max(x, axis=self.axis, keepdims=True)
        y = m + np.log(np.sum(np.exp(x - m), axis=self.axis, keepdims=True))
        self.p = np.exp(x - y)
        return y if self.keepdims else np.squeeze(y, axis=self.axis)

    def backward(self, grad_y):
        g = grad_y if self.keepdims else np.expand_dims(grad_y, self.axis)
        return (g * self.p,)


def logsumexp(x, axis=-1, keepdims=False):
    return LogSumExp(axis, keepdims)(x)
"""


def test_a_forward_wrapped_by_a_decorator_class_is_graded(tmp_path):
    path = student_file(tmp_path, LOGSUMEXP_DECORATED)
    assert grade("logsumexp", path).startswith("passed: logsumexp")


def test_a_numerical_backward_through_a_decorated_forward_is_still_seen(tmp_path):
    by_hand = '''        g = grad_y if self.keepdims else np.expand_dims(grad_y, self.axis)
        return (g * self.p,)'''
    numerical = LOGSUMEXP_DECORATED.replace(by_hand, '''        x = self.x
        grad = np.zeros_like(x)
        for i in np.ndindex(*x.shape):
            up, down = x.copy(), x.copy()
            up[i] += 1e-6
            down[i] -= 1e-6
            diff = (self.forward(up) - self.forward(down)) / 2e-6
            grad[i] = np.sum(np.asarray(grad_y) * diff)
        return (grad,)''').replace("        self.p = np.exp(x - y)", "        self.x = x")
    numerical = numerical.replace('saves = ("p",)', 'saves = ("x",)')
    path = student_file(tmp_path, numerical)
    assert "your backward runs your forward" in failure(path, "logsumexp")

