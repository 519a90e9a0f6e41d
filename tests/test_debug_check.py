"""check_graph: each op of a graph against finite differences of its own forward, in backward
order; it finds a planted wrong backward inside a larger model and passes correct ones."""

import inspect
import io
import os

import numpy as np
import pytest

import minigrad
import minigrad.functional as F
from minigrad import Function, Tensor, debug, nn
from minigrad.ops.elementwise import Tanh
from attention import MultiHeadAttention, dot_product_attention

pytestmark = pytest.mark.filterwarnings("error")
HERE = os.path.relpath(__file__)


class SlopeOfOne(Tanh):
    """tanh with a wrong backward: forgets the square, dL/dx = dL/dy * (1 - y)."""

    def backward(self, grad_y):
        return (grad_y * (1 - self.y),)


class Doubled(Function):
    """y = 2x whose backward forgets the 2 at element 0 only."""

    def forward(self, x):
        return 2 * x

    def backward(self, grad_y):
        grad_x = 2 * grad_y
        grad_x.flat[0] = grad_y.flat[0]
        return (grad_x,)


def model(rng, hidden_op=Tanh, dtype=np.float64):
    """Embedding -> LSTM -> attention over the steps -> a linear layer -> cross-entropy, with
    one of its activations made by `hidden_op`."""
    minigrad.manual_seed(0)
    embed, lstm, head = nn.Embedding(7, 5), nn.LSTM(5, 6), nn.Linear(6, 3)
    for module in (embed, lstm, head):
        module.to(dtype)
    ids = rng.integers(0, 7, size=(4, 2))                           # (T, B)
    outputs, _ = lstm(embed(ids))                                   # (T, B, 6)
    hidden = hidden_op()(outputs)                                   # (T, B, 6)
    query = hidden[-1]                                              # (B, 6)
    context, _ = dot_product_attention(query, hidden.swapaxes(0, 1), hidden.swapaxes(0, 1))
    logits = head(F.dropout(context, 0.3))                          # (B, 3)
    return F.cross_entropy(logits, np.array([0, 2]))


def test_correct_graphs_pass(rng):
    assert debug.check_graph(model(rng)) is None
    x = Tensor(rng.standard_normal((3, 4)), requires_grad=True)
    kinks = x.relu().relu() + x.abs().max(axis=1, keepdims=True) + x.clip(-0.5, 0.5).clip(0, 1)
    assert debug.check_graph(kinks.sum()) is None        # ReLU of exact zeros, clip at bounds
    mha = MultiHeadAttention(8, 2).double()
    seq = Tensor(rng.standard_normal((2, 5, 8)), requires_grad=True)
    mask = np.tril(np.ones((5, 5), dtype=bool))
    out, _ = mha(seq, seq, seq, mask=mask)                           # -inf scores inside
    assert debug.check_graph((out * out).sum()) is None


def test_a_planted_wrong_backward_is_found_and_named(rng):
    with debug.record_sites():                   # notes where each op was created
        line = inspect.currentframe().f_lineno + 1
        loss = model(rng, hidden_op=SlopeOfOne)
    mismatch = debug.check_graph(loss)
    assert isinstance(mismatch.op, SlopeOfOne) and mismatch.input == 0
    assert mismatch.wrong == mismatch.checked == 48                 # every element is off
    y = np.tanh(mismatch.op.inputs[0].data[mismatch.element])
    assert mismatch.backward == pytest.approx(mismatch.numeric * (1 - y) / (1 - y ** 2))
    text = str(mismatch).splitlines()
    assert text[0] == (f"check_graph: step {mismatch.step} of backward, SlopeOfOne(), disagrees "
                       "with finite differences of its own forward")
    assert text[1].startswith(f"  input 0 (<Stack>, shape (4, 2, 6)), element {mismatch.element}")
    backward_line = inspect.getsourcelines(SlopeOfOne.backward)[1]
    assert text[2] == f"  its backward: {HERE}:{backward_line} (SlopeOfOne.backward)"
    source, first = inspect.getsourcelines(model)
    made = first + next(k for k, code in enumerate(source) if "hidden_op()(outputs)" in code)
    assert text[3] == f"  created at {HERE}:{made} in model"
    assert text[5] == (f"    called from {HERE}:{line} in "
                       "test_a_planted_wrong_backward_is_found_and_named")


def test_detect_anomaly_and_trace_note_the_sites_too(rng):
    for watcher in (debug.detect_anomaly(), debug.trace(file=io.StringIO())):
        x = Tensor(rng.standard_normal(3), requires_grad=True)
        with watcher:
            line = inspect.currentframe().f_lineno + 1
            y = SlopeOfOne()(x)
        assert f"created at {HERE}:{line} in test_detect_anomaly" in str(
            debug.check_graph(y.sum()))


def test_without_recorded_sites_the_report_says_how_to_get_them(rng):
    x = Tensor(rng.standard_normal(3), requires_grad=True)
    text = str(debug.check_graph(SlopeOfOne()(x).sum()))
    assert "created at: unknown (build the graph inside `with minigrad.debug.record_sites():`" in (
        text)
    assert "its backward: " in text and "(SlopeOfOne.backward)" in text


def test_record_sites_notes_nothing_outside_its_block(rng):
    x = Tensor(rng.standard_normal(3), requires_grad=True)
    with debug.record_sites():
        inside = x.tanh()
    outside = x.tanh()
    assert inside.creator.created_at[0].function == (
        "test_record_sites_notes_nothing_outside_its_block")
    assert getattr(outside.creator, "created_at", None) is None
    assert not minigrad.autograd.watchers


def test_raise_on_mismatch_raises_the_report_and_keeps_the_mismatch(rng):
    x = Tensor(rng.standard_normal((2, 3)), requires_grad=True)
    loss = (SlopeOfOne()(x) * 3.0).sum()
    with pytest.raises(debug.GraphCheckError) as caught:
        debug.check_graph(loss, raise_on_mismatch=True)
    assert isinstance(caught.value, AssertionError)
    assert isinstance(caught.value.mismatch.op, SlopeOfOne)
    assert str(caught.value) == str(debug.check_graph(loss))
    assert str(caught.value).startswith("check_graph: step 3 of backward, SlopeOfOne()")
    assert debug.check_graph(x.tanh().sum(), raise_on_mismatch=True) is None


def test_a_mismatch_is_true_and_a_correct_graph_gives_none(rng):
    """`if mismatch:` reads as it should; a bare call in a script shows nothing either way."""
    x = Tensor(rng.standard_normal(3), requires_grad=True)
    assert debug.check_graph(SlopeOfOne()(x).sum())
    assert debug.check_graph(x.tanh().sum()) is None


def test_the_first_wrong_op_in_backward_order_is_reported(rng):
    x = Tensor(rng.standard_normal((2, 3)), requires_grad=True)
    deep = SlopeOfOne()(x)                       # wrong, far from the root
    near = Doubled()(deep * 3.0)                 # wrong, next to the root
    mismatch = debug.check_graph(near.sum())
    assert isinstance(mismatch.op, Doubled) and mismatch.step == 2    # after the Sum
    assert mismatch.element == (0, 0) and mismatch.wrong == 1 and mismatch.checked == 6
    assert mismatch.backward == pytest.approx(mismatch.numeric / 2)
    assert "created at: unknown" in str(mismatch)
    assert isinstance(debug.check_graph(deep.sum()).op, SlopeOfOne)


def test_large_inputs_are_sampled_and_checked_along_a_direction(rng):
    x = Tensor(rng.standard_normal(500), requires_grad=True)
    mismatch = debug.check_graph(Doubled()(x).sum(), max_elements=10)
    assert isinstance(mismatch.op, Doubled)
    assert mismatch.element in (None, (0,))      # element 0 alone is wrong: sampled, or not
    mismatch = debug.check_graph(Doubled()(x).sum(), max_elements=0)    # the direction alone
    assert isinstance(mismatch.op, Doubled) and mismatch.element is None
    assert mismatch.checked == 0 and mismatch.backward != pytest.approx(mismatch.numeric)
    assert "along a random direction" in str(mismatch)


def test_a_wrong_gradient_shape_is_reported():
    class Summed(Function):
        def forward(self, x):
            return x.sum(axis=0)

        def backward(self, grad_y):
            return (grad_y,)                     # forgot to spread it back over axis 0

    x = Tensor(np.ones((2, 3)), requires_grad=True)
    mismatch = debug.check_graph(Summed()(x).sum())
    assert "backward returned a gradient of shape (3,) for an input of shape (2, 3)" in str(
        mismatch)


def test_the_graph_and_the_random_generator_are_left_as_they_were(rng):
    loss = model(rng, dtype=np.float32)
    loss.backward()
    leaves = [t for t in minigrad.topological_order(loss) if t.creator is None]
    before = [t.grad.copy() for t in leaves]
    state = minigrad.random.generator().bit_generator.state
    assert debug.check_graph(loss) is None       # checked in float64 all the same
    assert minigrad.random.generator().bit_generator.state == state
    for t in leaves:
        t.zero_grad()
    loss.backward()
    for t, grad in zip(leaves, before):
        np.testing.assert_array_equal(t.grad, grad)


# ---- what cannot be checked is said, not passed or blamed on a correct backward ---------------

def test_nan_in_the_values_is_reported_as_such_not_blamed_on_muls_backward():
    z = Tensor([np.nan, 1.0], requires_grad=True, name="z")
    with pytest.raises(ValueError) as caught:
        debug.check_graph((z * z).sum())
    message = str(caught.value)
    assert message.startswith("check_graph: input 0 (<Mul>, shape (2,)) of Sum(")
    assert "holds 1 NaN of 2 element(s): the values are not finite" in message
    assert "disagrees" not in message and "\n" not in message


def test_an_inf_where_the_check_lands_is_reported_as_not_finite():
    z = Tensor([np.inf, 1.0], requires_grad=True, name="z")
    with pytest.raises(ValueError, match=r"input 0 \(z, shape \(2,\)\) of PowConstant\(p=2\) "
                                         r"holds 1 inf of 2 element"):
        debug.check_graph((z ** 2).sum())


def test_a_masked_attention_with_minus_inf_scores_still_passes(rng):
    query = Tensor(rng.standard_normal((2, 3)), requires_grad=True)
    keys = Tensor(rng.standard_normal((2, 4, 3)), requires_grad=True)
    mask = np.array([[True, True, False, False], [True, True, True, True]])
    context, _ = dot_product_attention(query, keys, keys, mask=mask)
    assert debug.check_graph((context ** 2).sum()) is None


@pytest.mark.parametrize("root, words", [
    (None, "root should be a minigrad Tensor (the loss), got NoneType"),
    (np.ones(2), "root should be a minigrad Tensor (the loss), got ndarray"),
    ([1.0], "root should be a minigrad Tensor (the loss), got list"),
])
def test_a_root_that_is_not_a_tensor_is_named_in_one_line(root, words):
    with pytest.raises(TypeError) as caught:
        debug.check_graph(root)
    assert str(caught.value) == f"check_graph: {words}"


def test_a_root_without_a_graph_is_an_error_not_a_silent_pass():
    leaf = Tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ValueError, match=r"root was made by no recorded op \(a leaf\): there is "
                                         r"no backward to check"):
        debug.check_graph(leaf)
    with minigrad.no_grad():
        loss = (leaf * 2).sum()
    with pytest.raises(ValueError, match=r"a result computed under no_grad\(\)"):
        debug.check_graph(loss)


@pytest.mark.parametrize("setting, words", [
    ({"raise_on_mismatch": "no"}, "raise_on_mismatch should be True or False, got 'no'"),
    ({"eps": 0}, "eps must be a finite number > 0, got 0"),
    ({"eps": float("nan")}, "eps must be a finite number > 0, got nan"),
    ({"atol": float("nan")}, "atol must be a finite number >= 0, got nan"),
    ({"atol": -1.0}, "atol must be a finite number >= 0, got -1.0"),
    ({"rtol": -1.0}, "rtol must be a finite number >= 0, got -1.0"),
    ({"max_elements": -1}, "max_elements must be an integer >= 0, got -1"),
    ({"seed": -1}, "seed must be an integer >= 0, got -1"),
])
def test_a_bad_setting_is_named_in_one_line(setting, words):
    loss = (Tensor([1.0, 2.0], requires_grad=True) * 3).sum()
    with pytest.raises((ValueError, TypeError)) as caught:
        debug.check_graph(loss, **setting)
    assert str(caught.value) == f"check_graph: {words}"
