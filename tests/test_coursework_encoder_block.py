"""The encoder-block exercise (python -m attention.grade encoder_block): a block built on the
student's own multi-head attention, imported from a file beside it, passes; a wrong one is
named for its mistake: a residual left out, the layer norm in the other order's place, or the
first of attn, h and ff that differs; running the project's EncoderBlock (or its
MultiHeadAttention) is refused."""

import re
from pathlib import Path

import pytest

from attention.grade import SolutionFailed, grade
from tests.reference import attention_reference as reference

from conftest import student_file
from test_coursework_answers import refusal

SOURCE = Path(reference.__file__).read_text(encoding="utf-8")
MULTI_HEAD = SOURCE.split("def encoder_block(")[0]          # the imports and Exercises 4 and 5
BLOCK = "from my_multi_head import multi_head_attention\n" + "\n".join(
    ["import minigrad.functional as F", "from minigrad.nn.layer_norm import layer_norm", "",
     "", "def encoder_block(" + SOURCE.split("def encoder_block(")[1].split("\nclass ")[0]])


def block_file(tmp_path, replace=None):
    """The reference's block in a file of its own that imports the multi-head attention from
    my_multi_head.py beside it, with `replace` = (old, new) applied once."""
    student_file(tmp_path, MULTI_HEAD, "my_multi_head.py")
    code = BLOCK
    if replace is not None:
        old, new = replace
        assert code.count(old) == 1, old
        code = code.replace(old, new)
    return student_file(tmp_path, code, "my_block.py")


def failure(path):
    with pytest.raises(SolutionFailed) as caught:
        grade("encoder_block", path)
    return str(caught.value)


def test_a_block_importing_the_students_own_multi_head_file_passes(tmp_path):
    report = grade("encoder_block", block_file(tmp_path))
    assert report.startswith("passed: encoder_block: 4 cases; the outputs (y) and the gradients "
                             "with respect to x, in_proj_weight")


def test_a_missing_first_residual_is_named(tmp_path):
    path = block_file(tmp_path, ("h = x + attn   ", "h = attn   "))
    message = failure(path)
    assert message.startswith('encoder_block: the output y is wrong for case 1 of 4, "pre-norm')
    assert ("the residual is missing: your h is attn, without the sublayer's input x; the block "
            "adds it: h = x + attn\n  check the line that makes h\n") in message


def test_a_missing_second_residual_in_post_norm_is_named(tmp_path):
    path = block_file(tmp_path, ("layer_norm(h + ff, norm2_weight", "layer_norm(ff, norm2_weight"))
    message = failure(path)
    assert 'for case 2 of 4, "post-norm (norm_first=False), 2 heads"' in message
    assert ("the residual is missing: your y is norm2(ff), without the sublayer's input h; the "
            "block adds it: y = norm2(h + ff)") in message


def test_post_norm_where_pre_norm_is_asked_is_named_with_its_line(tmp_path):
    path = block_file(tmp_path, ("    if norm_first:", "    if not norm_first:"))
    message = failure(path)
    assert ("the layer norm is in the wrong place: your h is norm1(x + attn), the post-norm "
            "order, and this case is pre-norm (norm_first=True): h = x + attn, with attn "
            "computed from norm1(x)") in message
    assert "check its line, your file, line " in message
    assert message.split("check its line, your file, line ")[1].split(": ", 1)[1].startswith(
        "h = layer_norm(x + attn, norm1_weight, norm1_bias)")


def test_pre_norm_where_post_norm_is_asked_is_named(tmp_path):
    path = block_file(tmp_path, ("    if norm_first:", "    if True:"))
    message = failure(path)
    assert 'case 2 of 4, "post-norm' in message
    assert ("the layer norm is in the wrong place: your h is x + attn, the pre-norm order, and "
            "this case is post-norm (norm_first=False): h = norm1(x + attn)") in message


def test_another_mistake_names_the_first_intermediate_that_differs(tmp_path):
    """GELU in place of the ReLU: attn and h agree, the feed-forward's output is the first that
    differs, with its line."""
    message = failure(block_file(tmp_path, ("F.relu(", "F.gelu(")))
    assert ("the feed-forward's output ff is the first of attn, h or ff that differs: element "
            in message)
    assert "check its line, your file, line " in message


def test_without_the_formulas_names_the_report_says_how_to_get_the_diagnosis(tmp_path):
    path = block_file(tmp_path, ("h = x + attn   ", "h = attn   "))
    renamed = re.sub(r"\bh\b", "middle", path.read_text())
    path.write_text(re.sub(r"\bff\b", "fed", re.sub(r"\battn\b", "attended", renamed)))
    message = failure(path)
    assert "(name your intermediate results attn, h and ff as in the formulas" in message


def test_the_projects_encoder_block_and_multi_head_module_are_refused(tmp_path):
    borrowed = student_file(tmp_path, """
        from attention import EncoderBlock
        from minigrad import Tensor

        def encoder_block(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                          linear1_weight, linear1_bias, linear2_weight, linear2_bias,
                          norm1_weight, norm1_bias, norm2_weight, norm2_bias, num_heads,
                          mask=None, norm_first=True):
            E, F = x.shape[-1], linear1_weight.shape[0]
            block = EncoderBlock(E, num_heads, F, dropout=0.0, norm_first=norm_first).double()
            attention = block.self_attn
            attention.in_proj_weight, attention.in_proj_bias = in_proj_weight, in_proj_bias
            attention.out_proj.weight, attention.out_proj.bias = out_proj_weight, out_proj_bias
            block.linear1.weight, block.linear1.bias = linear1_weight, linear1_bias
            block.linear2.weight, block.linear2.bias = linear2_weight, linear2_bias
            block.norm1.weight, block.norm1.bias = norm1_weight, norm1_bias
            block.norm2.weight, block.norm2.bias = norm2_weight, norm2_bias
            return block(x, mask=mask)
    """, "borrowed.py")
    message = refusal("attention", "encoder_block", borrowed)
    assert message.startswith("encoder_block: your encoder_block runs attention.")
    assert "EncoderBlock" in message.split("\n")[0]
    module = block_file(tmp_path, ("from my_multi_head import multi_head_attention\n", """\
from attention import MultiHeadAttention


def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias, out_proj_weight,
                         out_proj_bias, num_heads, mask=None):
    layer = MultiHeadAttention(query.shape[-1], num_heads)
    layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
    layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
    return layer(query, key, value, mask=mask)
"""))
    message = refusal("attention", "encoder_block", module)
    assert "runs attention.modules.MultiHeadAttention.__init__" in message
