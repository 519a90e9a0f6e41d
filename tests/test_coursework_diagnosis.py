"""The graders say where a composed solution goes wrong: the first of the named intermediates (a
GRU's r, z, n) that differs from the reference's, with the line that made it; and, when the
outputs are right but a gradient is 0 or missing, that the graph is cut, with the line that
takes in a tensor from outside the graph."""

import sys

import numpy as np
import pytest

from minigrad import autograd
from minigrad.grade import SolutionFailed, grade
from minigrad.grade.diagnose import keeping_locals
from minigrad.grade.grader import difference
from attention.grade import grade as grade_attention

from conftest import student_file

GRU = """
    from minigrad import Tensor

    def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
        H = h.shape[-1]
        from_x = x @ weight_ih.T + bias_ih                          # (B, 3H)
        from_h = h @ weight_hh.T + bias_hh                          # (B, 3H)
        r = (from_x[:, :H] + from_h[:, :H]).sigmoid()
        z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()
        n = (from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()
        return (1 - z) * n + z * h
"""


def gru_with(tmp_path, old, new):
    """The right GRU with one piece of code replaced: (its path, the number of the line that
    holds the new code)."""
    assert old in GRU
    path = student_file(tmp_path, GRU.replace(old, new))
    lines = path.read_text().splitlines()
    return path, 1 + next(k for k, line in enumerate(lines) if new.strip() in line)


def failure(path, exercise="gru_cell"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def test_the_right_gru_with_named_gates_passes(tmp_path):
    assert grade("gru_cell", student_file(tmp_path, GRU)).startswith("passed: gru_cell: 4 cases")


# ---- a wrong output: which gate, which line -----------------------------------------------------

def test_a_wrong_reset_gate_is_named_with_its_line(tmp_path):
    path, line = gru_with(tmp_path, "from_h[:, :H]).sigmoid()", "from_h[:, H:2 * H]).sigmoid()")
    message = failure(path).splitlines()
    assert message[0].startswith('gru_cell: the output h_new is wrong for case 1 of 4, "one '
                                 'example"')
    assert message[3].startswith("  the reset gate r is the first of r, z or n that differs: "
                                 "element (0, ")
    assert "5 of 5 elements are off" in message[3]
    assert message[4] == (f"  check its line, your file, line {line}: "
                          "r = (from_x[:, :H] + from_h[:, H:2 * H]).sigmoid()")


def test_a_wrong_update_gate_is_named_when_the_reset_gate_is_right(tmp_path):
    path, line = gru_with(tmp_path, "z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()",
                          "z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).tanh()")
    message = failure(path)
    assert "the update gate z is the first of r, z or n that differs" in message
    assert f"check its line, your file, line {line}: z = " in message


@pytest.mark.parametrize("candidate", [
    "(from_x[:, 2 * H:] + (r * h) @ weight_hh[2 * H:].T + bias_hh[2 * H:]).tanh()",   # 2014 paper
    "(from_x[:, 2 * H:] + r * (h @ weight_hh[2 * H:].T) + bias_hh[2 * H:]).tanh()",   # bias out
])
def test_the_papers_candidate_state_is_named_as_n(tmp_path, candidate):
    path, line = gru_with(tmp_path, "(from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()",
                          candidate)
    message = failure(path)
    assert "the candidate state n is the first of r, z or n that differs" in message
    assert f"check its line, your file, line {line}: n = {candidate}" in message


def test_gates_that_agree_point_at_the_line_after_them(tmp_path):
    path, line = gru_with(tmp_path, "return (1 - z) * n + z * h", "return z * n + (1 - z) * h")
    message = failure(path)
    assert "element (0, 3): yours 0.349162, expected -0.15839 (off by 0.508)" in message
    assert (f"  r, z and n agree with the reference: the mistake is in what comes after them, "
            f"your file, line {line}: return z * n + (1 - z) * h") in message


def test_without_the_formulas_names_the_report_says_how_to_get_the_diagnosis(tmp_path):
    code = (GRU.replace("r = ", "reset = ").replace("r * ", "reset * ")
            .replace("return (1 - z) * n + z * h", "return z * n + (1 - z) * h"))
    message = failure(student_file(tmp_path, code))
    assert "the output h_new is wrong for case 1 of 4" in message
    assert "z and n agree with the reference" in message
    assert "(r not found among your local variables, so not compared)" in message
    message = failure(student_file(tmp_path, """
        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            H = h.shape[-1]
            a, b = x @ weight_ih.T + bias_ih, h @ weight_hh.T + bias_hh
            reset = (a[:, :H] + b[:, :H]).sigmoid()
            update = (a[:, H:2 * H] + b[:, H:2 * H]).sigmoid()
            candidate = (a[:, 2 * H:] + reset * b[:, 2 * H:]).tanh()
            return update * candidate + (1 - update) * h
    """, "renamed.py"))
    assert ("(name your intermediate results r, z and n as in the formulas, and the grader says "
            "which one differs first)") in message


# ---- right outputs, a gradient 0 or missing: a cut graph ---------------------------------------

def test_a_copy_of_a_slice_of_the_graph_starves_one_block_of_the_weights(tmp_path):
    path, line = gru_with(tmp_path, "r * from_h[:, 2 * H:]", "r * Tensor(from_h.data)[:, 2 * H:]")
    message = failure(path)
    lines = message.splitlines()
    assert lines[0].startswith("gru_cell: no gradient reaches W_hn (rows 10 to 14 of weight_hh), "
                               'for case 1 of 4, "one example"')
    assert "the graph is cut between weight_hh and the outputs" in lines[1]
    assert lines[2] == (f"  your file, line {line} makes a (1, 15) tensor outside the graph: no "
                        "gradient flows back from it. It is a new Tensor made from an array "
                        "(t.data): compute with the tensor itself")
    assert lines[3].strip() == "n = (from_x[:, 2 * H:] + r * Tensor(from_h.data)[:, 2 * H:]).tanh()"
    assert "look at the backward" not in message


def test_the_line_quoted_is_the_files_current_text_after_a_rewrite(tmp_path):
    """linecache would quote the line of the file as it was at the first grading."""
    path, _ = gru_with(tmp_path, "r * from_h[:, 2 * H:]", "r * Tensor(from_h.data)[:, 2 * H:]")
    failure(path)
    path.write_text("# one more line at the top\n" + path.read_text())
    assert "n = (from_x[:, 2 * H:] + r * Tensor(from_h.data)[:, 2 * H:]).tanh()" in failure(path)


def test_a_copy_of_an_input_names_the_input_it_copies(tmp_path):
    path, line = gru_with(tmp_path, "from_h = h @", "from_h = Tensor(h.data) @")
    message = failure(path)
    assert message.startswith("gru_cell: the gradient with respect to h is wrong for case 1")
    assert "the outputs are right, so a path from an input to the outputs is cut:" in message
    assert (f"your file, line {line} makes a (1, 5) tensor outside the graph, a copy of h: no "
            "gradient flows back from it. It is a new Tensor made from an array (t.data)") \
        in message
    assert "from_h = Tensor(h.data) @ weight_hh.T + bias_hh\n" in message     # no comment


def test_a_copy_made_on_one_line_and_used_on_another_quotes_the_line_that_made_it(tmp_path):
    code = GRU.replace("H = h.shape[-1]", "hh = Tensor(h.data)\n        H = h.shape[-1]")
    code = code.replace("from_h = h @", "from_h = hh @")
    path = student_file(tmp_path, code)
    lines = path.read_text().splitlines()
    made = 1 + next(k for k, line in enumerate(lines) if "hh = Tensor(h.data)" in line)
    used = 1 + next(k for k, line in enumerate(lines) if "from_h = hh @" in line)
    message = failure(path).splitlines()
    assert message[4] == (f"  your file, line {made} makes hh, a (1, 5) tensor outside the graph, "
                          "a copy of h: no gradient flows back from it. It is a new Tensor made "
                          f"from an array (t.data): compute with the tensor itself (line {used} "
                          "takes it in)")
    assert message[5].strip() == "hh = Tensor(h.data)"


def test_a_detached_gate_is_named_with_the_line_that_detaches_it(tmp_path):
    path, line = gru_with(tmp_path, "from_h[:, :H]).sigmoid()",
                          "from_h[:, :H]).sigmoid().detach()")
    message = failure(path)
    assert message.startswith("gru_cell: no gradient reaches W_ir (rows 0 to 4 of weight_ih)")
    assert (f"your file, line {line} makes r, a (1, 5) tensor outside the graph: no gradient "
            "flows back from it. .detach() made it, a copy cut off from the graph: use the tensor "
            f"itself (line {line + 2} takes it in)\n"
            "      r = (from_x[:, :H] + from_h[:, :H]).sigmoid().detach()") in message
    assert "Did you make a new Tensor" not in message


def test_a_detached_gate_used_in_one_minus_z_is_named_not_the_constant_one(tmp_path):
    """1 - z with z detached is recorded by no op: it goes back to z's copy, not to the 1 that
    the op turned into a tensor, so the first line named is the one that detaches z."""
    path, line = gru_with(tmp_path, "from_h[:, H:2 * H]).sigmoid()",
                          "from_h[:, H:2 * H]).sigmoid().detach()")
    message = failure(path).splitlines()
    assert message[0].startswith("gru_cell: no gradient reaches W_iz (rows 5 to 9 of weight_ih)")
    assert message[2].startswith(f"  your file, line {line} makes z, a (1, 5) tensor outside "
                                 "the graph")
    assert "a () tensor" not in "\n".join(message)


def test_an_input_used_only_through_a_copy_gets_no_gradient_at_all(tmp_path):
    code = GRU.replace("H = h.shape[-1]", "H = h.shape[-1]\n        h = h.detach()")
    message = failure(student_file(tmp_path, code))
    assert message.startswith("gru_cell: no gradient reaches h, for case 1 of 4")
    assert "yours is missing (None)" in message and "a copy of h" in message


def test_two_copies_are_both_named_in_the_order_of_their_lines(tmp_path):
    """Whichever of them is nearer the outputs: the report reads down the file."""
    for old, new in [("from_h = h @", "from_h = Tensor(h.data) @"),
                     ("r * from_h[:, 2 * H:]", "r * Tensor(from_h.data)[:, 2 * H:]")]:
        path, line = gru_with(tmp_path, old, new)
        path.write_text(path.read_text().replace("from_x = x @", "from_x = Tensor(x.data) @"))
        named = [int(text.split()[3]) for text in failure(path).splitlines()
                 if text.startswith("  your file, line ")]           # "  your file, line 6 ..."
        assert named == [6, line] and line > 6


def test_a_copy_that_requires_grad_is_where_the_gradient_stops(tmp_path):
    path, line = gru_with(tmp_path, "from_x = x @", "from_x = Tensor(x.data, requires_grad=True) @")
    message = failure(path)
    assert message.startswith("gru_cell: no gradient reaches x, for case 1 of 4")
    assert (f"your file, line {line} makes a (1, 4) tensor outside the graph, a copy of x that "
            "requires grad: its gradient stops there") in message


# A layer_norm whose own op's backward is wrong (its line 18 makes the op): the outputs right,
# the gradient not (tests/test_messages_whole_lines.py grades it in Japanese).
WRONG_ROOT = """
import numpy as np
from minigrad import Function

class Root(Function):
    saves = ("y",)

    def forward(self, x):
        self.y = np.sqrt(x)
        return self.y

    def backward(self, grad_y):
        return (grad_y / self.y,)               # should be / (2 * y)

def layer_norm(x, weight, bias, eps=1e-5):
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = (centred ** 2).mean(axis=-1, keepdims=True)
    return centred / Root()(variance + eps) * weight + bias
"""


def test_a_wrong_backward_of_ones_own_op_is_named_with_its_line(tmp_path):
    path = student_file(tmp_path, WRONG_ROOT)
    message = failure(path, "layer_norm")
    assert message.startswith("layer_norm: the gradient with respect to x is wrong for case 1")
    assert ("(the outputs are right: look at the backward of your Root (made at your file, "
            "line 18: return centred / Root()(variance + eps) * weight + bias))") in message


def test_multi_head_with_a_copied_value_projection_names_w_v(tmp_path):
    path = student_file(tmp_path, """
        import minigrad.functional as F
        from minigrad import Tensor
        from attention import dot_product_attention

        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            w_q, w_k, w_v = F.split(in_proj_weight, 3)
            w_v = Tensor(w_v.data)
            b_q, b_k, b_v = F.split(in_proj_bias, 3)
            size = query.shape[-1] // num_heads
            contexts, weights = [], []
            for head in range(num_heads):
                rows = slice(head * size, (head + 1) * size)
                q = query @ w_q[rows].T + b_q[rows]
                k = key @ w_k[rows].T + b_k[rows]
                v = value @ w_v[rows].T + b_v[rows]
                context, weight = dot_product_attention(q, k, v, mask=mask, scale=True)
                contexts.append(context)
                weights.append(weight)
            output = F.concat(contexts, axis=-1) @ out_proj_weight.T + out_proj_bias
            return output, F.stack(weights, axis=0).mean(axis=0)
    """)
    with pytest.raises(SolutionFailed) as caught:
        grade_attention("multi_head", path)
    message = str(caught.value)
    assert message.startswith("multi_head: no gradient reaches W_v (rows 8 to 11 of "
                              "in_proj_weight), for case 1 of 4")
    assert ("your file, line 9 makes w_v, a (4, 4) tensor outside the graph: no gradient flows "
            "back from it. It is a new Tensor made from an array (t.data): compute with the "
            "tensor itself (line 17 takes it in)") in message
    assert message.count("your file") == 1          # once for both heads' slices of the copy
    assert "line 18" not in message                 # attention's own constants are no copies


def test_named_gates_beside_an_import_of_the_reference_are_refused_not_diagnosed(tmp_path):
    """The reference cannot be opened in the graded code's process: the refusal comes before
    any diagnosis of the gates."""
    path = student_file(tmp_path, """
        from tests.reference.minigrad_reference import gru_cell as answer

        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            r = z = n = x
            return answer(x, h, weight_ih, weight_hh, bias_ih, bias_hh)
    """)
    assert ("opens the reference solutions (minigrad_reference.py), an answer to this exercise"
            in failure(path))


# ---- the machinery ------------------------------------------------------------------------------

def test_keeping_locals_passes_calls_on_to_the_profiler_restores_it_and_leaves_no_watcher(tmp_path):
    def gates(x):
        r = x * 2
        z = r + 1
        return z

    seen = []

    def mine(frame, event, arg):
        seen.append((event, frame.f_code.co_name))

    sys.setprofile(mine)
    try:
        result, kept = keeping_locals(lambda: gates(3), gates, ["r", "z", "n"])
        assert sys.getprofile() is mine
    finally:
        sys.setprofile(None)
    assert result == 7 and kept == {"r": 6, "z": 7}
    assert ("call", "gates") in seen and ("return", "gates") in seen     # passed on to it
    failure(gru_with(tmp_path, "z * h", "z * h.sigmoid()")[0])
    assert autograd.watchers == []


def test_difference_counts_nan_as_off_and_equal_infinities_as_equal():
    assert difference([1.0, np.inf], [1.0, np.inf]) is None
    assert difference([np.nan], [np.nan]) is None
    element, yours, expected, wrong, total = difference([1.0, 2.0], [1.0, np.nan])
    assert (element, yours, wrong, total) == ((1,), 2.0, 1, 2) and np.isnan(expected)
    assert difference([[0.0, 1.0], [2.0, 3.5]], [[0.0, 1.0], [2.0, 3.0]]) == (
        (1, 1), 3.5, 3.0, 1, 4)
