"""The student's code runs inside the watch for answers from the moment the file is imported to
the moment its results are handed back: a module `__getattr__` that the grader's look-up of the
function would run, or a property of an output read after the function returned, runs watched
too (or not at all)."""

from textwrap import dedent

import pytest

from minigrad.grade import SolutionFailed, grade

from conftest import HONEST_LAYER_NORM, honest_layer_norm_file, student_file


def failure(path, exercise="layer_norm"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def test_a_module_getattr_is_not_run_to_find_the_function(tmp_path):
    """Run at the look-up, between the watch of the import and that of the call, the
    project's layer_norm went unseen; the function it handed back was the student's own."""
    mine = HONEST_LAYER_NORM.replace("def layer_norm", "def mine")
    path = student_file(tmp_path, mine + dedent("""
        import numpy as np

        from minigrad import Tensor
        from minigrad.nn.layer_norm import layer_norm as project

        TABLE = {}


        def __getattr__(name):
            if name != "layer_norm":
                raise AttributeError(name)
            TABLE["ran"] = project(Tensor(np.ones((1, 2))), Tensor(np.ones(2)),
                                   Tensor(np.zeros(2)))
            return mine
    """))
    assert failure(path).startswith("layer_norm: your file defines no `layer_norm`")


def test_a_property_of_an_output_read_after_the_call_runs_inside_the_watch(tmp_path):
    path = student_file(tmp_path, HONEST_LAYER_NORM.replace("def layer_norm", "def honest") + """
import numpy as np

from minigrad import Tensor
from minigrad.nn.layer_norm import layer_norm as project

RAN = []


class Sneaky(Tensor):
    __slots__ = ()

    @property
    def data(self):
        if not RAN:
            RAN.append(project(Tensor(np.ones((1, 2))), Tensor(np.ones(2)), Tensor(np.zeros(2))))
        return Tensor.data.__get__(self)


def layer_norm(x, weight, bias, eps=1e-5):
    y = honest(x, weight, bias, eps)
    y.__class__ = Sneaky
    return y
""")
    assert failure(path).startswith("layer_norm: your layer_norm runs "
                                    "minigrad.nn.layer_norm.layer_norm")


def test_a_file_with_a_module_getattr_and_its_own_function_passes(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        def __getattr__(name):
            raise AttributeError(name)
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")
