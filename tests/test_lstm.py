"""The LSTM: the composed cell, the fused cell and the fused whole-sequence op gradchecked in
float64, equal to each other, and equal to PyTorch's LSTMCell and LSTM after copying the state
dict; memory stays flat in training."""

import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import minigrad
from minigrad import Tensor, debug, gradcheck, nn
from minigrad.autograd import topological_order
from minigrad.nn.fused_lstm import FusedLSTM, FusedLSTMCell, fused_lstm, fused_lstm_cell
from minigrad.nn.lstm import lstm_cell


def random_state(rng, batch, hidden):
    return (Tensor(rng.standard_normal((batch, hidden)), requires_grad=True),
            Tensor(rng.standard_normal((batch, hidden)), requires_grad=True))


def run_and_backward(module, x, state, rng):
    """Run the module, backpropagate a random upstream gradient into every output, and return
    the outputs' values and every gradient, by name."""
    out = module(x, state)
    outputs, (h, c) = out if isinstance(module, nn.LSTM) else (out[0], out)
    loss = sum(((t * Tensor(rng.standard_normal(t.shape))).sum() for t in (outputs, h, c)),
               Tensor(0.0))
    loss.backward()
    values = {"outputs": outputs.data, "h": h.data, "c": c.data}
    grads = {"x": x.grad, "h0": state[0].grad, "c0": state[1].grad}
    grads.update({name: p.grad for name, p in module.named_parameters()})
    return values, grads


# ---- gradient checks (float64) -----------------------------------------------------------------

@pytest.mark.parametrize("fused", [False, True])
def test_lstm_cell_gradcheck_wrt_input_state_and_every_parameter(rng, fused):
    cell = nn.LSTMCell(3, 4, fused=fused).double()
    x = Tensor(rng.standard_normal((2, 3)), requires_grad=True)
    h, c = random_state(rng, 2, 4)
    assert gradcheck(lambda x, h, c, *params: cell(x, (h, c)), x, h, c, *cell.parameters())


@pytest.mark.parametrize("fused", [False, True])
def test_lstm_gradcheck_over_time_wrt_input_state_and_every_parameter(rng, fused):
    lstm = nn.LSTM(3, 4, fused=fused).double()
    x = Tensor(rng.standard_normal((2, 3, 3)), requires_grad=True)
    h, c = random_state(rng, 2, 4)

    def run(x, h, c, *params):
        outputs, (h, c) = lstm(x, (h, c))
        return outputs, h, c
    assert gradcheck(run, x, h, c, *lstm.parameters())


def test_fused_op_alone_gradcheck_each_of_its_seven_inputs(rng):
    x = Tensor(rng.standard_normal((3, 2)), requires_grad=True)
    h, c = random_state(rng, 3, 5)
    weights = [Tensor(rng.standard_normal(s) * 0.5, requires_grad=True)
               for s in [(20, 2), (20, 5), (20,), (20,)]]
    assert gradcheck(lambda *inputs: FusedLSTMCell()(*inputs), x, h, c, *weights)


def test_fused_sequence_op_alone_gradcheck_each_of_its_seven_inputs(rng):
    x = Tensor(rng.standard_normal((3, 4, 2)), requires_grad=True)          # (B, T, I)
    h, c = random_state(rng, 3, 5)
    weights = [Tensor(rng.standard_normal(s) * 0.5, requires_grad=True)
               for s in [(20, 2), (20, 5), (20,), (20,)]]
    assert gradcheck(lambda *inputs: FusedLSTM()(*inputs), x, h, c, *weights)


# ---- fused == composed ---------------------------------------------------------------------------

def composed_and_fused(feed, state_given=True, batch_first=True, x_requires_grad=True):
    """Run the same LSTM composed and fused on the same data; backpropagate random upstream
    gradients into the outputs named in `feed` ("outputs", "h", "c"). Returns, for each, the
    values of all three outputs and every gradient, by name."""
    results = []
    for fused in (False, True):
        minigrad.manual_seed(0)
        lstm = nn.LSTM(5, 6, batch_first=batch_first, fused=fused).double()
        rng = np.random.default_rng(1)                      # the same data and upstream gradients
        x = Tensor(rng.standard_normal((3, 8, 5) if batch_first else (8, 3, 5)),
                   requires_grad=x_requires_grad)
        state = random_state(rng, 3, 6) if state_given else None
        outputs, (h, c) = lstm(x, state)
        values = {"outputs": outputs, "h": h, "c": c}
        loss = sum(((values[name] * Tensor(rng.standard_normal(values[name].shape))).sum()
                    for name in feed), Tensor(0.0))
        loss.backward()
        grads = {name: p.grad for name, p in lstm.named_parameters()}
        grads["x"] = x.grad
        if state_given:
            grads["h0"], grads["c0"] = state[0].grad, state[1].grad
        results.append(({name: t.data for name, t in values.items()}, grads))
    return results


@pytest.mark.parametrize("feed", [("outputs", "h", "c"), ("outputs",), ("h", "c"), ("c",)])
def test_fused_and_composed_lstm_agree_to_round_off_in_values_and_every_gradient(feed):
    (values, grads), (fused_values, fused_grads) = composed_and_fused(feed)
    assert len(grads) == 7 and all(g is not None for g in fused_grads.values())
    for name in values:
        np.testing.assert_allclose(fused_values[name], values[name], rtol=0, atol=1e-13)
    for name in grads:
        assert np.abs(grads[name]).max() > 1e-3, name         # each one is a real gradient
        np.testing.assert_allclose(fused_grads[name], grads[name], rtol=0, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("batch_first", [True, False])
def test_fused_and_composed_lstm_agree_from_zero_state_and_without_grad_for_x(batch_first):
    (values, grads), (fused_values, fused_grads) = composed_and_fused(
        ("outputs", "h"), state_given=False, batch_first=batch_first, x_requires_grad=False)
    assert grads["x"] is None and fused_grads["x"] is None
    assert fused_values["outputs"].shape == ((3, 8, 6) if batch_first else (8, 3, 6))
    for name in values:
        np.testing.assert_allclose(fused_values[name], values[name], rtol=0, atol=1e-13)
    for name in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"):
        np.testing.assert_allclose(fused_grads[name], grads[name], rtol=0, atol=1e-12, err_msg=name)


def test_fused_lstm_is_one_op_for_the_whole_sequence_and_the_state_is_its_slices(rng):
    lstm = nn.LSTM(3, 4, fused=True).double()
    x = Tensor(rng.standard_normal((2, 5, 3)), requires_grad=True)
    outputs, (h, c) = lstm(x)
    ops = [type(t.creator).__name__ for t in topological_order(outputs) if t.creator]
    assert ops == ["FusedLSTM", "GetItem"]
    y = outputs.creator.inputs[0]                                   # the op's output (B, T+1, H)
    assert y.shape == (2, 6, 4) and y.creator.inputs[0] is x
    assert h.creator.inputs[0] is y and c.creator.inputs[0] is y
    np.testing.assert_array_equal(h.data, outputs.data[:, -1])
    outputs_again, (h_again, c_again) = fused_lstm(x, (Tensor(np.zeros((2, 4))),) * 2,
                                                   *lstm.parameters())
    np.testing.assert_array_equal(outputs_again.data, outputs.data)
    np.testing.assert_array_equal(c_again.data, c.data)


def test_fused_lstm_backward_twice_adds_the_same_gradients_again(rng):
    """Backward changes nothing that forward saved (the guard checks), so a second backward
    through the same graph adds exactly the same gradients."""
    lstm = nn.LSTM(3, 4, fused=True).double()
    x = Tensor(rng.standard_normal((2, 5, 3)), requires_grad=True)
    h0, c0 = random_state(rng, 2, 4)
    with debug.guard_saved():
        outputs, (h, c) = lstm(x, (h0, c0))
        loss = (outputs * Tensor(rng.standard_normal(outputs.shape))).sum() + (h * c).sum()
        loss.backward()
        first = [t.grad.copy() for t in (x, h0, c0, *lstm.parameters())]
        loss.backward()
    for before, t in zip(first, (x, h0, c0, *lstm.parameters())):
        np.testing.assert_array_equal(t.grad, 2 * before)


def test_fused_lstm_backward_leaves_the_gradient_arriving_at_it_unchanged(rng):
    """BPTT writes into arrays of its own: the gradient it was handed (dL/dc_T included) is
    still what arrived after its backward ran."""
    lstm = nn.LSTM(3, 4, fused=True).double()
    outputs, (h, c) = lstm(Tensor(rng.standard_normal((2, 5, 3))))
    arrived = []
    outputs.creator.inputs[0].register_hook(lambda grad: arrived.append((grad, grad.copy())))
    ((outputs * Tensor(rng.standard_normal(outputs.shape))).sum() + (c * c).sum()).backward()
    grad, copy = arrived[0]
    assert np.abs(copy[:, -1]).max() > 0.1                          # dL/dc_T arrived
    np.testing.assert_array_equal(grad, copy)


@pytest.mark.parametrize("fused", [False, True])
def test_lstm_cell_method_is_one_step_of_the_layer(rng, fused):
    lstm = nn.LSTM(3, 4, fused=fused).double()
    x = rng.standard_normal((2, 1, 3))
    outputs, (h, c) = lstm(Tensor(x))
    h1, c1 = lstm.cell(Tensor(x[:, 0]))
    if fused:           # the step op, FusedLSTMCell; the layer ran FusedLSTM (other sum order)
        assert type(h1.creator.inputs[0].creator).__name__ == "FusedLSTMCell"
    np.testing.assert_allclose(h1.data, h.data, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c1.data, c.data, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(outputs.data[:, 0], h.data)


def test_state_none_means_zeros_and_batch_first_false_is_time_major(rng):
    lstm = nn.LSTM(3, 4).double()
    x = rng.standard_normal((2, 5, 3))
    zeros = (Tensor(np.zeros((2, 4))), Tensor(np.zeros((2, 4))))
    a, (ha, ca) = lstm(Tensor(x))
    b, (hb, cb) = lstm(Tensor(x), zeros)
    np.testing.assert_array_equal(a.data, b.data)
    lstm.batch_first = False
    t, (ht, ct) = lstm(Tensor(x.transpose(1, 0, 2)))                 # (T, B, I)
    assert t.shape == (5, 2, 4)
    np.testing.assert_array_equal(t.data.transpose(1, 0, 2), a.data)
    np.testing.assert_array_equal(ht.data, ha.data)


def test_lstm_runs_in_float32_by_default_and_both_cells_agree_there(rng):
    lstm = nn.LSTM(3, 4)
    x = Tensor(rng.standard_normal((2, 6, 3)), dtype=np.float32)
    composed, (h, c) = lstm(x)
    lstm.fused = True
    fused, (hf, cf) = lstm(x)
    assert composed.dtype == fused.dtype == hf.dtype == cf.dtype == np.float32
    np.testing.assert_allclose(fused.data, composed.data, atol=1e-6)


def test_fused_lstm_gradients_stay_float32_and_match_float64(rng):
    lstm = nn.LSTM(3, 4, fused=True)
    x = rng.standard_normal((2, 6, 3))
    state = rng.standard_normal((2, 2, 4))
    upstream = rng.standard_normal((2, 6, 4))
    grads = {}
    for dtype in (np.float32, np.float64):
        lstm.to(dtype).zero_grad()
        inputs = [Tensor(a, requires_grad=True, dtype=dtype) for a in (x, *state)]
        outputs, (h, c) = lstm(inputs[0], tuple(inputs[1:]))
        ((outputs * Tensor(upstream, dtype=dtype)).sum() + c.sum()).backward()
        assert outputs.dtype == h.dtype == c.dtype == dtype
        grads[dtype] = [t.grad for t in (*inputs, *lstm.parameters())]
    for g32, g64 in zip(grads[np.float32], grads[np.float64]):
        assert g32.dtype == np.float32
        np.testing.assert_allclose(g32, g64, rtol=1e-4, atol=1e-5)


def test_lstm_init_names_and_shapes_follow_pytorch_and_the_seed():
    minigrad.manual_seed(5)
    lstm = nn.LSTM(16, 32)
    assert [(n, p.shape) for n, p in lstm.named_parameters()] == [
        ("weight_ih_l0", (128, 16)), ("weight_hh_l0", (128, 32)),
        ("bias_ih_l0", (128,)), ("bias_hh_l0", (128,))]
    values = np.concatenate([p.data.ravel() for p in lstm.parameters()])
    bound = 1 / np.sqrt(32)
    assert np.abs(values).max() <= bound and np.abs(values).max() > 0.99 * bound
    minigrad.manual_seed(5)
    np.testing.assert_array_equal(nn.LSTM(16, 32).weight_hh_l0.data, lstm.weight_hh_l0.data)
    cell = nn.LSTMCell(16, 32)
    assert [n for n, _ in cell.named_parameters()] == ["weight_ih", "weight_hh", "bias_ih",
                                                       "bias_hh"]


@pytest.mark.parametrize("fused", [False, True])
def test_lstm_cell_and_the_layer_draw_the_same_parameters_and_take_the_same_step(rng, fused):
    minigrad.manual_seed(7)
    cell = nn.LSTMCell(3, 4, fused=fused)
    minigrad.manual_seed(7)
    lstm = nn.LSTM(3, 4, fused=fused)
    assert len(cell.cell_parameters()) == len(lstm.cell_parameters()) == 4
    for a, b in zip(cell.cell_parameters(), lstm.cell_parameters()):
        np.testing.assert_array_equal(a.data, b.data)           # same shapes, same draws
    assert [p.shape for p in cell.cell_parameters()] == [(16, 3), (16, 4), (16,), (16,)]
    x = Tensor(rng.standard_normal((2, 3)), dtype=np.float32)
    state = tuple(Tensor(rng.standard_normal((2, 4)), dtype=np.float32) for _ in range(2))
    for mine, theirs in zip(cell(x, state), lstm.cell(x, state)):
        np.testing.assert_array_equal(mine.data, theirs.data)
        assert type(mine.creator) is type(theirs.creator)       # fused: both one op
    with pytest.raises(ValueError, match=r"^LSTMCell: expected an input of shape "
                                         r"\(batch, input_size\) with input_size=3, got \(2, 5\)"):
        cell(np.zeros((2, 5), np.float32))
    with pytest.raises(ValueError, match=r"^LSTM: the initial c should have shape"):
        lstm.cell(x, (state[0], np.zeros((3, 4), np.float32)))


def test_lstm_errors_name_the_expected_shapes():
    lstm = nn.LSTM(3, 4)
    x = np.zeros((2, 5, 3), dtype=np.float32)
    with pytest.raises(ValueError, match=r"expected an input of shape \(batch, time, input_size\) "
                                         r"with input_size=3, got \(2, 3\)"):
        lstm(np.zeros((2, 3), dtype=np.float32))
    with pytest.raises(ValueError, match=r"initial h should have shape .* got \(1, 2, 4\)"):
        lstm(x, (np.zeros((1, 2, 4), np.float32), np.zeros((1, 2, 4), np.float32)))
    with pytest.raises(TypeError, match="input is float64 but the layer's parameters are float32"):
        lstm(x, (np.zeros((2, 4)), np.zeros((2, 4))))              # a float64 state
    with pytest.raises(ValueError, match="no time steps"):
        lstm(np.zeros((2, 0, 3), dtype=np.float32))


# ---- against PyTorch (float64) ------------------------------------------------------------------

@pytest.mark.parametrize("fused", [False, True])
def test_lstm_cell_matches_pytorch(fused):
    torch = pytest.importorskip("torch")
    ours = nn.LSTMCell(6, 5, fused=fused).double()
    theirs = torch.nn.LSTMCell(6, 5).double()
    theirs.load_state_dict({k: torch.from_numpy(v) for k, v in ours.state_dict().items()})
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 6))
    h0, c0 = rng.standard_normal((2, 4, 5))
    up_h, up_c = rng.standard_normal((2, 4, 5))

    x_, h_, c_ = (Tensor(a, requires_grad=True) for a in (x, h0, c0))
    h, c = ours(x_, (h_, c_))
    ((h * Tensor(up_h)).sum() + (c * Tensor(up_c)).sum()).backward()
    tx, th, tc = (torch.tensor(a, requires_grad=True) for a in (x, h0, c0))
    th1, tc1 = theirs(tx, (th, tc))
    ((th1 * torch.from_numpy(up_h)).sum() + (tc1 * torch.from_numpy(up_c)).sum()).backward()

    np.testing.assert_allclose(h.data, th1.detach().numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.data, tc1.detach().numpy(), rtol=0, atol=1e-12)
    for ours_grad, t in [(x_.grad, tx), (h_.grad, th), (c_.grad, tc)]:
        np.testing.assert_allclose(ours_grad, t.grad.numpy(), rtol=0, atol=1e-10)
    for name, p in theirs.named_parameters():
        np.testing.assert_allclose(getattr(ours, name).grad, p.grad.numpy(), rtol=0, atol=1e-10)


@pytest.mark.parametrize("fused, batch_first", [(False, True), (True, True), (True, False)])
def test_lstm_over_29_steps_matches_pytorch_in_outputs_state_and_every_gradient(fused,
                                                                                 batch_first):
    torch = pytest.importorskip("torch")
    batch, steps, inputs, hidden = 4, 29, 16, 32
    ours = nn.LSTM(inputs, hidden, batch_first=batch_first, fused=fused).double()
    theirs = torch.nn.LSTM(inputs, hidden, batch_first=batch_first).double()
    theirs.load_state_dict({k: torch.from_numpy(v) for k, v in ours.state_dict().items()})
    rng = np.random.default_rng(3)
    x = rng.standard_normal((batch, steps, inputs) if batch_first else (steps, batch, inputs))
    h0, c0 = rng.standard_normal((2, batch, hidden))
    up_out = rng.standard_normal((batch, steps, hidden) if batch_first else
                                 (steps, batch, hidden))
    up_h, up_c = rng.standard_normal((2, batch, hidden))

    x_, h_, c_ = (Tensor(a, requires_grad=True) for a in (x, h0, c0))
    outputs, (h, c) = ours(x_, (h_, c_))
    loss = (outputs * Tensor(up_out)).sum() + (h * Tensor(up_h)).sum() + (c * Tensor(up_c)).sum()
    loss.backward()

    tx = torch.tensor(x, requires_grad=True)
    th, tc = (torch.tensor(a[None], requires_grad=True) for a in (h0, c0))   # (1, B, H)
    t_out, (t_h, t_c) = theirs(tx, (th, tc))
    t_loss = ((t_out * torch.from_numpy(up_out)).sum() + (t_h[0] * torch.from_numpy(up_h)).sum()
              + (t_c[0] * torch.from_numpy(up_c)).sum())
    t_loss.backward()

    np.testing.assert_allclose(outputs.data, t_out.detach().numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(h.data, t_h[0].detach().numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.data, t_c[0].detach().numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(x_.grad, tx.grad.numpy(), rtol=0, atol=1e-10)
    np.testing.assert_allclose(h_.grad, th.grad[0].numpy(), rtol=0, atol=1e-10)
    np.testing.assert_allclose(c_.grad, tc.grad[0].numpy(), rtol=0, atol=1e-10)
    for name, p in theirs.named_parameters():
        np.testing.assert_allclose(getattr(ours, name).grad, p.grad.numpy(), rtol=0, atol=1e-10,
                                   err_msg=name)
    assert np.abs(ours.weight_hh_l0.grad).max() > 1.0               # not trivially small


# ---- memory --------------------------------------------------------------------------------------

@pytest.mark.parametrize("fused", [False, True])
def test_300_training_steps_keep_memory_flat(fused):
    """No graph survives a step: memory after 300 steps is what it was after 20, and the ops
    and tensors of an early step are gone."""
    minigrad.manual_seed(0)
    lstm = nn.LSTM(3, 8, fused=fused).double()
    head = nn.Linear(8, 1).double()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 5, 3))
    target = rng.standard_normal((4, 5, 1))
    params = list(lstm.parameters()) + list(head.parameters())

    def step():
        outputs, _ = lstm(Tensor(x))
        loss = ((head(outputs) - Tensor(target)) ** 2).mean()
        for p in params:
            p.grad = None
        loss.backward()
        for p in params:
            p.data -= 0.05 * p.grad                                    # plain SGD
        return loss

    first = step()
    alive = [weakref.ref(first), weakref.ref(first.creator)]
    del first
    gc.collect()
    tracemalloc.start()
    try:
        losses = []
        for i in range(300):
            losses.append(step().item())
            if i == 19:
                gc.collect()
                early = tracemalloc.get_traced_memory()[0]
        gc.collect()
        late = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert all(ref() is None for ref in alive)
    assert late - early < 20_000, f"memory grew by {late - early} bytes over 280 steps"
    assert losses[-1] < 0.5 * losses[0]                             # and it did learn


def test_functional_cells_are_what_the_modules_call(rng):
    cell = nn.LSTMCell(2, 3).double()
    x = Tensor(rng.standard_normal((1, 2)))
    state = (Tensor(rng.standard_normal((1, 3))), Tensor(rng.standard_normal((1, 3))))
    weights = list(cell.parameters())
    h, c = cell(x, state)
    for step in (lstm_cell, fused_lstm_cell):
        h2, c2 = step(x, state, *weights)
        np.testing.assert_allclose(h2.data, h.data, atol=1e-15)
        np.testing.assert_allclose(c2.data, c.data, atol=1e-15)
