"""Three ways, found by trying, to run an answer inside the graded code's own process, which
the grader now catches. (docs/coursework.md says what it still cannot catch there.)"""

import pytest

from minigrad.grade import SolutionFailed, grade
from attention.grade import grade as grade_attention
from seq2seq.grade import grade_file as grade_beam_search

from conftest import student_file


def failure(grader, *args):
    with pytest.raises(SolutionFailed) as caught:
        grader(*args)
    return str(caught.value)


def test_flipping_a_flag_of_the_audit_hook_found_by_gc_does_not_open_the_reference(tmp_path):
    path = student_file(tmp_path, """
        import gc
        import types
        try:
            for found in gc.get_objects():
                if not isinstance(found, types.FunctionType):
                    continue
                for cell in found.__closure__ or ():
                    if cell.cell_contents == [False]:
                        cell.cell_contents[0] = True            # the hook's "busy" flag
        except PermissionError:
            pass
        from tests.reference.minigrad_reference import gru_cell
    """)
    message = failure(grade, "gru_cell", path)
    assert message.startswith("gru_cell: your code looks through the interpreter's objects "
                              "(gc.get_objects) while it is graded")


def test_beam_search_of_a_reloaded_decoding_module_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import importlib

        import seq2seq.models.decoding

        def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
            again = importlib.reload(seq2seq.models.decoding)
            return again.beam_search(model, src, bos_id, eos_id, beam_size, max_len)
    """)
    message = failure(grade_beam_search, path)
    assert message.startswith("beam_search: your beam_search runs "
                              "seq2seq.models.decoding.beam_search (again, as beam_search from ")


def test_multi_head_attention_of_a_reloaded_modules_module_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import importlib

        import attention.modules
        from minigrad.nn import Module

        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            again = importlib.reload(attention.modules)
            embed = query.shape[-1]
            layer = again.MultiHeadAttention(embed, num_heads)
            layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
            layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
            return layer(query, key, value, mask=mask)
    """)
    message = failure(grade_attention, "multi_head", path)
    assert message.startswith("multi_head: your multi_head_attention runs "
                              "attention.modules.MultiHeadAttention.")


def test_the_projects_beam_search_rebuilt_under_another_name_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import inspect
        import types

        from seq2seq.models import decoding

        f = inspect.unwrap(decoding.beam_search)
        mine = types.FunctionType(f.__code__.replace(co_name="mine", co_qualname="mine"),
                                  f.__globals__, "mine", f.__defaults__, f.__closure__)

        def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
            return mine(model, src, bos_id, eos_id, beam_size, max_len)
    """)
    message = failure(grade_beam_search, path)
    assert message.startswith("beam_search: your beam_search runs "
                              "seq2seq.models.decoding.beam_search (again, as mine from ")


def test_logsumexps_own_op_is_judged_by_the_grader_not_by_a_flag_from_the_process(tmp_path):
    """The graded code's process once sent its own verdict on this check (`own_op: True`); now
    it sends the op's classes and file, and the grader decides."""
    from minigrad.grade.exercises import logsumexp_is_one_op
    path = student_file(tmp_path, "")
    forged = {"own_op": True, "made_by": "Sum", "made_by_file": None, "made_by_classes": []}
    with pytest.raises(SolutionFailed, match="but it was made by Sum, for case 1"):
        logsumexp_is_one_op(forged, "case 1", path)
    mine = {"made_by": "LogSumExp", "made_by_file": str(path.resolve()),
            "made_by_classes": ["solution.LogSumExp", "minigrad.autograd.Function",
                                "builtins.object"]}
    logsumexp_is_one_op(mine, "case 1", path)
