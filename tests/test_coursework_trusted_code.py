"""The audit hook trusts the project's own code (to switch the profile hook, to replace a
function's code) by the code objects its modules defined, not by the file a code object names:
code the graded file compiles under the name of one of minigrad's modules is the graded file's
own, and is refused as it would be in the graded file."""

import pytest

import minigrad.grade.answers
from minigrad.grade import SolutionFailed
from attention.grade import grade as grade_attention

from conftest import student_file

ANSWERS = minigrad.grade.answers.__file__

USE_THE_PROJECTS_LAYER = """
        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            {switch_off}
            layer = MultiHeadAttention(query.shape[-1], num_heads)
            layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
            layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
            return layer(query, key, value, mask=mask)
"""


def failure(path):
    with pytest.raises(SolutionFailed) as caught:
        grade_attention("multi_head", path)
    return str(caught.value)


@pytest.mark.parametrize("switch_off", [
    f'exec(compile("import sys; sys.setprofile(None)", {ANSWERS!r}, "exec"))',
    f'exec(compile("def off():\\n    sys.setprofile(None)", {ANSWERS!r}, "exec"), globals()); '
    f'off()',
    "types.FunctionType(minigrad.grade.threads.watch_every_thread.__code__, "
    "{'thread_setprofile': sys.setprofile, 'relay': None})()",
])
def test_setprofile_compiled_under_a_minigrad_file_name_is_refused(tmp_path, switch_off):
    path = student_file(tmp_path, """
        import sys
        import types

        import minigrad.grade.threads
        from attention import MultiHeadAttention
    """ + USE_THE_PROJECTS_LAYER.format(switch_off=switch_off))
    assert failure(path).startswith(
        "multi_head: your code calls sys.setprofile (your file, or a module it imports) while it "
        "is graded")


def test_setprofile_compiled_under_threadings_file_name_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import sys
        import threading

        from attention import MultiHeadAttention
    """ + USE_THE_PROJECTS_LAYER.format(
        switch_off='exec(compile("import sys; sys.setprofile(None)", threading.__file__, '
                   '"exec"))'))
    assert failure(path).startswith(
        "multi_head: your code calls sys.setprofile (your file, or a module it imports)")


def test_replacing_the_watchs_code_compiled_under_a_minigrad_file_name_is_refused(tmp_path):
    path = student_file(tmp_path, f"""
        import minigrad.grade.answers
        from attention import MultiHeadAttention

        try:
            exec(compile("import minigrad.grade.answers as a\\n"
                         "a.watching.__code__ = (lambda answers, where=None: None).__code__",
                         {ANSWERS!r}, "exec"))
        except Exception:
            pass
    """ + USE_THE_PROJECTS_LAYER.format(switch_off="pass"))
    message = failure(path)
    assert message.startswith("multi_head: your code replaces the code of watching"), message


def test_the_projects_own_code_is_trusted_by_its_code_objects():
    from minigrad.grade import trusted
    from minigrad.grade.answers import watching

    own = trusted.own_code()
    code, namespace = watching.__wrapped__.__code__, watching.__wrapped__.__globals__
    assert trusted.is_own(code, namespace, own)
    assert not trusted.is_own(code, dict(namespace), own)           # its code, other globals
    assert not trusted.is_own(compile("pass", ANSWERS, "exec"), namespace, own)
