"""SGD, Adam and clip_grad_norm_ against PyTorch, step by step, and exact resume from a
checkpoint."""

import re

import numpy as np
import pytest

import minigrad
import minigrad.functional as F
from minigrad import Tensor, nn
from minigrad.checkpoint import load, save
from minigrad.nn.utils import clip_grad_norm_
from minigrad.optim import SGD, Adam

torch = pytest.importorskip("torch")

SHAPES = [(3, 4), (4,), ()]
STEPS = 10


def make_run(dtype=np.float64, seed=0):
    """Initial values and, for every step, a noise term for each parameter's gradient."""
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(shape).astype(dtype) for shape in SHAPES]
    noise = [[rng.standard_normal(shape).astype(dtype) for shape in SHAPES] for _ in range(STEPS)]
    return init, noise


def gradient(value, noise):
    """A gradient that depends on where the parameter is (as a real loss's would):
    that of sum(value**4 / 8 + noise * value)."""
    return np.asarray(0.5 * value ** 3 + noise)     # an array even for a 0-d parameter


def skipped(step, i):
    """Parameter 1 has no gradient on steps 2 and 5 (both optimisers must skip it)."""
    return i == 1 and step in (2, 5)


def set_grads(ours, theirs, noise, step):
    for i, (p, q, n) in enumerate(zip(ours, theirs, noise[step])):
        if skipped(step, i):
            p.grad, q.grad = None, None
            continue
        p.grad = gradient(p.data, n)
        q.grad = torch.from_numpy(gradient(q.detach().numpy(), n))


def compare_with_torch(make_ours, make_theirs, dtype, rtol, atol, schedule=None):
    init, noise = make_run(dtype)
    ours = [Tensor(x.copy(), requires_grad=True) for x in init]
    theirs = [torch.tensor(x.copy(), requires_grad=True) for x in init]
    opt, topt = make_ours(ours), make_theirs(theirs)
    for step in range(STEPS):
        if schedule is not None:                    # a learning-rate schedule, set by hand
            opt.lr = topt.param_groups[0]["lr"] = schedule(step)
        set_grads(ours, theirs, noise, step)
        opt.step()
        topt.step()
        for i, (p, q) in enumerate(zip(ours, theirs)):
            assert p.data.dtype == dtype
            np.testing.assert_allclose(p.data, q.detach().numpy(), rtol=rtol, atol=atol,
                                       err_msg=f"parameter {i} after step {step + 1}")
            ours_state, torch_state = opt.state.get(i, {}), topt.state[q]
            for name, value in ours_state.items():
                expected = torch_state[name]
                if name == "step":
                    assert value == int(expected.item())
                else:
                    assert value.dtype == dtype
                    np.testing.assert_allclose(value, expected.numpy(), rtol=rtol, atol=atol)
    for p, x in zip(ours, init):
        assert not np.allclose(p.data, x)           # the parameters did move


SGD_SETTINGS = [
    dict(lr=0.1),
    dict(lr=0.1, weight_decay=0.1),
    dict(lr=0.05, momentum=0.9),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.05, momentum=0.5, weight_decay=0.1),
    dict(lr=0.05, momentum=0.9, weight_decay=0.01, nesterov=True),
]

ADAM_SETTINGS = [
    dict(),
    dict(lr=0.1),
    dict(lr=0.05, betas=(0.8, 0.99), eps=1e-6),
    dict(lr=0.05, betas=(0.5, 0.9), weight_decay=0.1),
]


@pytest.mark.parametrize("settings", SGD_SETTINGS, ids=str)
def test_sgd_matches_torch_over_10_steps(settings):
    compare_with_torch(lambda ps: SGD(ps, **settings),
                       lambda ps: torch.optim.SGD(ps, **settings),
                       np.float64, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("settings", ADAM_SETTINGS, ids=str)
def test_adam_matches_torch_over_10_steps(settings):
    compare_with_torch(lambda ps: Adam(ps, **settings),
                       lambda ps: torch.optim.Adam(ps, **settings),
                       np.float64, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_float32_parameters_stay_float32_and_match_torch(name):
    settings = dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01) if name == "SGD" \
        else dict(lr=0.05, weight_decay=0.01)
    compare_with_torch(lambda ps: getattr(minigrad.optim, name)(ps, **settings),
                       lambda ps: getattr(torch.optim, name)(ps, **settings),
                       np.float32, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_changing_lr_between_steps_matches_torch(name):
    settings = dict(lr=0.1, momentum=0.9) if name == "SGD" else dict(lr=0.1)
    compare_with_torch(lambda ps: getattr(minigrad.optim, name)(ps, **settings),
                       lambda ps: getattr(torch.optim, name)(ps, **settings),
                       np.float64, rtol=1e-12, atol=1e-14, schedule=lambda step: 0.1 * 0.7 ** step)


def test_training_loop_with_backward_and_clipping_matches_torch():
    """The whole loop: forward, zero_grad, backward, clip_grad_norm_, step."""
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((16, 3)), rng.standard_normal((16, 2))
    w0, b0 = rng.standard_normal((3, 2)), rng.standard_normal(2)
    w, b = Tensor(w0.copy(), requires_grad=True), Tensor(b0.copy(), requires_grad=True)
    tw = torch.tensor(w0.copy(), requires_grad=True)
    tb = torch.tensor(b0.copy(), requires_grad=True)
    opt = SGD([w, b], lr=0.1, momentum=0.9)
    topt = torch.optim.SGD([tw, tb], lr=0.1, momentum=0.9)
    losses = []
    for _ in range(STEPS):
        loss = ((Tensor(x) @ w + b - Tensor(y)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        norm = clip_grad_norm_([w, b], max_norm=0.5)
        opt.step()

        tloss = ((torch.from_numpy(x) @ tw + tb - torch.from_numpy(y)) ** 2).mean()
        topt.zero_grad()
        tloss.backward()
        tnorm = torch.nn.utils.clip_grad_norm_([tw, tb], max_norm=0.5)
        topt.step()

        assert loss.item() == pytest.approx(tloss.item(), rel=1e-12)
        assert norm == pytest.approx(tnorm.item(), rel=1e-12)
        losses.append(loss.item())
    np.testing.assert_allclose(w.data, tw.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(b.data, tb.detach().numpy(), rtol=1e-12)
    assert losses[-1] < 0.5 * losses[0]


def test_zero_grad_sets_every_gradient_to_none():
    params = [Tensor(np.ones(2), requires_grad=True), Tensor(np.ones(3), requires_grad=True)]
    for p in params:
        p.grad = np.ones_like(p.data)
    SGD(params, lr=0.1).zero_grad()
    assert [p.grad for p in params] == [None, None]


def test_step_updates_in_place_and_leaves_the_gradient_alone():
    p = Tensor(np.ones(3, dtype=np.float32), requires_grad=True)
    grad = np.full(3, 2.0, dtype=np.float32)
    p.grad = grad
    array = p.data
    SGD([p], lr=0.5, weight_decay=0.1, momentum=0.9).step()
    assert p.data is array and p.data.dtype == np.float32
    np.testing.assert_allclose(p.data, 1 - 0.5 * (2.0 + 0.1), rtol=1e-6)
    assert p.grad is grad and np.array_equal(grad, np.full(3, 2.0))


@pytest.mark.parametrize("make, message", [
    (lambda p: SGD([], lr=0.1), "empty"),
    (lambda p: SGD([p, p], lr=0.1), "more than once"),
    (lambda p: SGD([p * 2.0], lr=0.1), "not a leaf"),
    (lambda p: SGD([np.zeros(2)], lr=0.1), "not a tensor"),
    (lambda p: SGD([p], lr=-1.0), r"SGD: lr must be a finite number >= 0, got -1.0"),
    (lambda p: SGD([p], lr=0.1, nesterov=True), "nesterov"),
    (lambda p: Adam([p], betas=(0.9, 1.0)), "betas"),
    (lambda p: SGD([Tensor(np.broadcast_to(1.0, (3,)), requires_grad=True)], lr=0.1), "read-only"),
])
def test_bad_arguments_are_refused_with_a_clear_message(make, message):
    p = Tensor(np.zeros(2), requires_grad=True, name="w")
    with pytest.raises((ValueError, TypeError), match=message):
        make(p)


# ---- state_dict and exact resume ----------------------------------------------------------

def train(opt, params, noise, steps):
    for step in steps:
        for i, (p, n) in enumerate(zip(params, noise[step])):
            p.grad = None if skipped(step, i) else gradient(p.data, n)
        opt.step()


OPTIMISERS = {
    "SGD": lambda ps, lr=0.05: SGD(ps, lr=lr, momentum=0.9, nesterov=True, weight_decay=0.01),
    "Adam": lambda ps, lr=0.05: Adam(ps, lr=lr, betas=(0.8, 0.99), weight_decay=0.01),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", list(OPTIMISERS))
def test_resume_from_a_checkpoint_is_bit_identical(tmp_path, name, dtype):
    init, noise = make_run(dtype)
    make = OPTIMISERS[name]

    straight = [Tensor(x.copy(), requires_grad=True) for x in init]
    train(make(straight), straight, noise, range(STEPS))

    first = [Tensor(x.copy(), requires_grad=True) for x in init]
    opt = make(first)
    train(opt, first, noise, range(4))
    save({"params": [p.data for p in first], "optimizer": opt.state_dict(), "epoch": 4},
         tmp_path / "run.npz")
    del first, opt

    checkpoint = load(tmp_path / "run.npz")
    resumed = [Tensor(x, requires_grad=True) for x in checkpoint["params"]]
    opt = make(resumed, lr=123.0)                   # the checkpoint's lr must win
    opt.load_state_dict(checkpoint["optimizer"])
    assert opt.lr == 0.05
    train(opt, resumed, noise, range(checkpoint["epoch"], STEPS))

    for p, q in zip(resumed, straight):
        assert p.data.dtype == dtype
        assert p.data.tobytes() == q.data.tobytes()


def test_a_model_and_its_optimiser_resume_exactly_from_a_checkpoint(tmp_path):
    rng = np.random.default_rng(3)
    x = Tensor(rng.standard_normal((8, 3)).astype(np.float32))
    labels = rng.integers(0, 2, 8)

    def make(seed):
        minigrad.manual_seed(seed)
        model = nn.Linear(3, 2)
        return model, Adam(model.parameters(), lr=0.05)

    def train(model, opt, steps):
        for _ in range(steps):
            loss = F.cross_entropy(model(x), labels)
            opt.zero_grad()
            loss.backward()
            clip_grad_norm_(model.parameters(), max_norm=0.1)
            opt.step()

    straight, straight_opt = make(seed=0)
    train(straight, straight_opt, 6)

    model, opt = make(seed=0)
    train(model, opt, 3)
    save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3},
         tmp_path / "model.npz")
    model, opt = make(seed=1)                       # other initial weights: the load must win
    checkpoint = load(tmp_path / "model.npz")
    model.load_state_dict(checkpoint["model"])
    opt.load_state_dict(checkpoint["optimizer"])
    train(model, opt, 6 - checkpoint["epoch"])

    for p, q in zip(model.parameters(), straight.parameters()):
        assert p.data.dtype == np.float32
        assert p.data.tobytes() == q.data.tobytes()


@pytest.mark.parametrize("name", list(OPTIMISERS))
def test_resume_without_the_optimiser_state_differs(name):
    """The state matters: a fresh optimiser after 4 steps does not land where the run did."""
    init, noise = make_run()
    make = OPTIMISERS[name]
    straight = [Tensor(x.copy(), requires_grad=True) for x in init]
    train(make(straight), straight, noise, range(STEPS))
    restarted = [Tensor(x.copy(), requires_grad=True) for x in init]
    train(make(restarted), restarted, noise, range(4))
    train(make(restarted), restarted, noise, range(4, STEPS))
    assert not np.allclose(restarted[0].data, straight[0].data, rtol=1e-6)


def test_state_dict_has_torch_layout_and_is_a_copy():
    init, noise = make_run()
    params = [Tensor(x.copy(), requires_grad=True) for x in init]
    opt = Adam(params, lr=0.01)
    train(opt, params, noise, range(3))
    state = opt.state_dict()
    assert state["param_groups"] == [{"lr": 0.01, "betas": (0.9, 0.999), "eps": 1e-8,
                                      "weight_decay": 0.0, "params": [0, 1, 2]}]
    assert list(state["state"]) == [0, 1, 2]
    assert list(state["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    assert state["state"][0]["step"] == 3 and state["state"][1]["step"] == 2   # 1 skipped once
    saved = state["state"][0]["exp_avg"].copy()
    train(opt, params, noise, range(3, 5))
    np.testing.assert_array_equal(state["state"][0]["exp_avg"], saved)


def test_load_state_dict_refuses_a_mismatch():
    init, noise = make_run()
    params = [Tensor(x.copy(), requires_grad=True) for x in init]
    adam = Adam(params)
    train(adam, params, noise, range(2))
    with pytest.raises(ValueError, match="another kind of optimiser"):
        SGD(params, lr=0.1).load_state_dict(adam.state_dict())
    with pytest.raises(ValueError, match="for 3 parameters, this optimiser has 2"):
        Adam(params[:2]).load_state_dict(adam.state_dict())
    swapped = [Tensor(np.zeros((4, 3)), requires_grad=True)] + params[1:]
    with pytest.raises(ValueError, match=r"shape \(3, 4\)"):
        Adam(swapped).load_state_dict(adam.state_dict())


# ---- clip_grad_norm_ ------------------------------------------------------------------------

def grads_pair(dtype=np.float64, seed=2):
    """The same parameters and gradients for minigrad and torch; the last has no gradient."""
    rng = np.random.default_rng(seed)
    ours, theirs = [], []
    for shape in SHAPES + [(2, 2)]:
        value = rng.standard_normal(shape).astype(dtype)
        grad = rng.standard_normal(shape).astype(dtype)
        p, q = Tensor(value, requires_grad=True), torch.tensor(value, requires_grad=True)
        if shape != (2, 2):                         # the last one has no gradient
            p.grad, q.grad = grad.copy(), torch.from_numpy(grad.copy())
        ours.append(p)
        theirs.append(q)
    return ours, theirs


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_clip_grad_norm_matches_torch(norm_type):
    ours, theirs = grads_pair()
    total = clip_grad_norm_(ours, max_norm=0.5, norm_type=norm_type)
    expected = torch.nn.utils.clip_grad_norm_(theirs, max_norm=0.5, norm_type=norm_type)
    assert isinstance(total, float) and total > 0.5
    assert total == pytest.approx(expected.item(), rel=1e-12)
    for p, q in zip(ours, theirs):
        if q.grad is None:
            assert p.grad is None
        else:
            np.testing.assert_allclose(p.grad, q.grad.numpy(), rtol=1e-12)
    norms = [np.linalg.norm(p.grad.ravel(), norm_type) for p in ours if p.grad is not None]
    assert np.linalg.norm(norms, norm_type) == pytest.approx(0.5, rel=1e-5)


def test_clip_grad_norm_with_a_large_max_norm_changes_nothing():
    ours, theirs = grads_pair()
    before = [None if p.grad is None else p.grad.copy() for p in ours]
    total = clip_grad_norm_(iter(ours), max_norm=100.0)   # any iterable, e.g. a generator
    expected = torch.nn.utils.clip_grad_norm_(theirs, max_norm=100.0)
    assert total == pytest.approx(expected.item(), rel=1e-12)
    for p, grad in zip(ours, before):
        assert (p.grad is None and grad is None) or np.array_equal(p.grad, grad)


def test_clip_grad_norm_keeps_float32_and_takes_a_single_tensor():
    p = Tensor(np.zeros(4, dtype=np.float32), requires_grad=True)
    p.grad = np.array([3.0, 0.0, 4.0, 0.0], dtype=np.float32)
    assert clip_grad_norm_(p, max_norm=1.0) == pytest.approx(5.0)
    assert p.grad.dtype == np.float32
    np.testing.assert_allclose(p.grad, [0.6, 0.0, 0.8, 0.0], rtol=1e-5)
    assert clip_grad_norm_([Tensor(np.zeros(2), requires_grad=True)], max_norm=1.0) == 0.0


@pytest.mark.parametrize("name, value, said", [
    ("step", 2.5, "should be a whole number"),
    ("step", -1, "should be a count from 0 to 2**53"),
    ("exp_avg", np.nan, "holds NaN or infinity"),
    ("exp_avg_sq", -1.0, "holds a negative number"),
])
def test_load_state_dict_refuses_a_saved_state_no_step_could_have_made(name, value, said):
    """A NaN in a saved moment would surface later as a NaN weight, blamed on the learning rate;
    it is refused when loaded, naming the state and the parameter."""
    w = Tensor(np.ones(3), requires_grad=True, name="w")
    adam = Adam([w], lr=0.1)
    (w * w).sum().backward()
    adam.step()
    saved = adam.state_dict()
    slot = saved["state"][0]
    slot[name] = np.full_like(slot[name], value) if isinstance(slot[name], np.ndarray) else value
    with pytest.raises(ValueError, match=re.escape(f"state '{name}' of parameter 0 ('w') {said}")):
        Adam([w], lr=0.1).load_state_dict(saved)
