"""minigrad.debug.local_names: each tensor made in its block named by the local variable of the
learner's code that held it when a function returned (innermost first), for the explorer."""

import sys

import numpy as np

from minigrad import Tensor, debug, nn


def gate(x, w):
    pre = x @ w                                 # a local of the innermost function
    out = pre.sigmoid()
    return out


def layer(x, w):
    hidden = gate(x, w)                         # `out` in gate: the innermost name wins
    scaled = hidden * 2.0
    return scaled


def test_the_innermost_function_names_each_tensor_and_minigrads_own_frames_do_not():
    x = Tensor(np.ones((2, 3)), requires_grad=True)
    w = Tensor(np.ones((3, 2)), requires_grad=True)
    with debug.local_names() as found:
        y = layer(x, w)
    assert found["pre"] is y.creator.inputs[0].creator.inputs[0]
    assert found["out"] is y.creator.inputs[0]
    assert found["scaled"] is y
    assert found["x"] is x and found["w"] is w
    assert "hidden" not in found                # the same tensor as `out`, named inside first
    assert "self" not in found and "result" not in found     # (Tensor's own methods: skipped)


def test_a_name_held_by_several_tensors_is_numbered_in_the_order_they_were_named():
    x = Tensor(np.ones(2), requires_grad=True)
    with debug.local_names() as found:
        first = gate(x.reshape(1, 2), Tensor(np.ones((2, 2))))
        second = gate(first, Tensor(np.ones((2, 2))))
    assert found["out #1"] is first and found["out #2"] is second
    assert "out" not in found


def test_the_block_of_the_with_statement_names_what_is_left():
    x = Tensor(np.ones((2, 3)), requires_grad=True)
    w = Tensor(np.ones((3, 2)), requires_grad=True)
    with debug.local_names() as found:
        y = gate(x, w)
        total = y.sum()
    assert found["out"] is y                    # named inside gate first
    assert found["total"] is total              # named by this test's own locals, at the end


def test_the_layers_of_minigrad_nn_are_the_learners_code():
    cell = nn.LSTMCell(2, 3)
    x = Tensor(np.ones((1, 2), dtype=np.float32), requires_grad=True)
    with debug.local_names() as found:
        h, c = cell(x, None)
    assert {"gates", "i", "f", "g", "o"} <= set(found)
    assert found["c"] is c and found["h"] is h


def test_any_previous_profile_function_keeps_running_and_comes_back():
    calls = []

    def previous(frame, event, arg):
        calls.append(event)

    sys.setprofile(previous)
    try:
        with debug.local_names() as found:
            y = gate(Tensor(np.ones((1, 2))), Tensor(np.ones((2, 2))))
        assert sys.getprofile() is previous
    finally:
        sys.setprofile(None)
    assert "return" in calls and found["out"] is y


def test_names_come_out_the_same_every_run():
    def run():
        with debug.local_names() as found:
            layer(Tensor(np.ones((2, 3))), Tensor(np.ones((3, 2))))
        return list(found)
    assert run() == run() == ["pre", "out", "scaled", "x", "w"]     # (parameters last)


def test_a_functions_parameters_name_only_what_no_other_variable_names():
    def norm(v):
        return v / 2.0

    x = Tensor(np.ones(2), requires_grad=True)
    with debug.local_names() as found:
        tripled = x * 3.0
        y = norm(tripled)                       # v in norm: tripled here wins
        z = norm(x * 2.0)                       # v: its only name
    assert found["tripled"] is tripled and found["y"] is y and found["x"] is x
    assert found["v"] is z.creator.inputs[0]


def test_modules_machinery_names_no_parameter():
    cell = nn.LSTMCell(2, 3)
    with debug.local_names() as found:
        cell(Tensor(np.ones((1, 2), dtype=np.float32)), None)
    assert "value" not in found                 # (Module's walk over its attributes)


def test_pythons_own_and_numpys_functions_name_nothing():
    import copy
    held = [Tensor(np.ones(2))]                 # in no variable of this test
    with debug.local_names() as found:
        copy.copy(held[0])                      # copy.copy(x): Python's own, not yours
    assert found == {}


def sublayer(v):
    same = v                                    # what it was given, by another name: an alias
    return same * 2.0


def residual_block(x):
    x = x + sublayer(x)                         # rebound on the next line: a debugger at the
    x = x + sublayer(x)                         # return sees only the last sum
    return x


def test_a_tensor_takes_the_name_given_where_it_was_made_though_that_name_is_rebound_later():
    start = Tensor(np.ones(2), requires_grad=True)
    with debug.local_names() as found:
        y = residual_block(start)
    first = y.creator.inputs[0]
    assert found == {"x #1": first, "x #2": y, "start": start}     # not `same`, not `v`


class Block(nn.Module):
    def __init__(self):
        self.norm = nn.LayerNorm(2, fused=True)     # one op, as in attention's blocks
        self.linear = nn.Linear(2, 2)
        self.drop = nn.Dropout(0.0)

    def forward(self, x):
        return x + self.drop(self.linear(self.norm(x)))


def test_a_sublayers_output_no_variable_named_carries_the_blocks_call_of_it():
    block = Block()
    x = Tensor(np.ones((1, 2), dtype=np.float32), requires_grad=True)
    with debug.local_names() as found:
        out = block(x)
    normed = out.creator.inputs[1].creator.inputs[0].creator.inputs[0]
    assert found["norm(x)"] is normed           # not `x`, the name of Linear's parameter
    assert found["y #2"] is out.creator.inputs[1]   # named where made, in Linear: not drop(y)
    assert found["out"] is out and found["x"] is x


def test_a_leaf_that_minigrad_hands_back_unchanged_is_not_made_where_it_comes_back():
    drop = nn.Dropout(0.0)                      # passes its input through: the same tensor
    start = Tensor(np.ones(2), requires_grad=True)
    with debug.local_names() as found:
        kept = drop(start)
    assert kept is start and found == {"start": start}  # not `x`, Dropout.forward's parameter


def test_a_sublayers_output_names_its_input_by_the_inputs_own_name_given_before_the_end():
    x = Tensor(np.ones((1, 2), dtype=np.float32), requires_grad=True)
    with debug.local_names() as found:
        Block()(x)
        x.name = "x1"                           # as explore_self names the residual's input
    assert "norm(x1)" in found and "norm(x)" not in found
