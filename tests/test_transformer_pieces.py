"""The pieces a Transformer needs besides attention and LayerNorm: GELU (exact and tanh) and
the ReLU/GELU layers, Sequential and ModuleList, label-smoothed cross-entropy, and the
warm-up then 1/sqrt(step) learning-rate schedule. Each gradchecked where it has a gradient and
compared with PyTorch where PyTorch has it (skipped without PyTorch)."""

import math

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, gradcheck, nn, optim
from minigrad.optim.lr_scheduler import LambdaLR, NoamLR, noam_lrate

# ---- GELU --------------------------------------------------------------------------------------


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_gradcheck(rng, approximate):
    x = Tensor(rng.standard_normal((3, 4)) * 2, requires_grad=True)
    assert gradcheck(lambda x: F.gelu(x, approximate), x)


def test_gelu_values_at_known_points():
    x = Tensor(np.array([-1.0, 0.0, 1.0, 3.0]))
    phi = [0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x.data]
    np.testing.assert_allclose(F.gelu(x).data, x.data * phi, rtol=1e-15)
    u = math.sqrt(2 / math.pi) * (x.data + 0.044715 * x.data ** 3)
    np.testing.assert_allclose(F.gelu(x, "tanh").data, 0.5 * x.data * (1 + np.tanh(u)), rtol=1e-15)
    assert abs(F.gelu(x).data[2] - F.gelu(x, "tanh").data[2]) > 1e-5     # two different forms


def test_gelu_keeps_float32():
    x = Tensor(np.array([0.5, -2.0], dtype=np.float32), requires_grad=True)
    y = nn.GELU()(x)
    y.sum().backward()
    assert y.dtype == np.float32 and x.grad.dtype == np.float32


def test_gelu_refuses_an_unknown_approximation_naming_it():
    with pytest.raises(ValueError, match="gelu: approximate must be 'none' or 'tanh', not 'erf'"):
        F.gelu(Tensor([1.0]), "erf")
    with pytest.raises(ValueError, match="GELU: approximate"):
        nn.GELU("fast")


def test_relu_and_gelu_layers_are_their_functions(rng):
    x = Tensor(rng.standard_normal(5))
    np.testing.assert_array_equal(nn.ReLU()(x).data, F.relu(x).data)
    np.testing.assert_array_equal(nn.GELU("tanh")(x).data, F.gelu(x, "tanh").data)
    assert repr(nn.GELU("tanh")) == "GELU(approximate='tanh')" and repr(nn.ReLU()) == "ReLU()"


# ---- Sequential and ModuleList -----------------------------------------------------------------

def mlp():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


def test_sequential_runs_its_modules_in_order_with_pytorch_parameter_names(rng):
    model = mlp()
    x = Tensor(rng.standard_normal((3, 4)).astype(np.float32))
    expected = model[2](F.relu(model[0](x)))
    np.testing.assert_array_equal(model(x).data, expected.data)
    assert list(model.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert [name for name, _ in model.named_parameters()] == list(model.state_dict())
    assert len(model) == 3 and isinstance(model[-1], nn.Linear)
    assert [type(m).__name__ for m in model] == ["Linear", "ReLU", "Linear"]
    assert isinstance(model[1:], nn.Sequential) and len(model[1:]) == 2
    assert model.num_parameters() == 4 * 8 + 8 + 8 * 2 + 2


def test_sequential_repr_shows_each_position():
    assert repr(nn.Sequential(nn.Linear(2, 3), nn.ReLU())).splitlines() == [
        "Sequential()", "  0: Linear(in_features=2, out_features=3, bias=True)",
        "    weight: (3, 2) float32", "    bias: (3,) float32", "  1: ReLU()"]


def test_module_list_holds_blocks_by_index_and_their_parameters():
    class Stack(nn.Module):
        def __init__(self):
            self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])
            self.blocks.append(nn.LayerNorm(3))

    stack = Stack()
    assert list(stack.state_dict()) == ["blocks.0.weight", "blocks.0.bias", "blocks.1.weight",
                                        "blocks.1.bias", "blocks.2.weight", "blocks.2.bias"]
    assert len(stack.blocks) == 3 and stack.blocks[2] is list(stack.blocks)[2]
    stack.eval()
    assert not any(block.training for block in stack.blocks)
    with pytest.raises(IndexError, match="ModuleList: index 3 is out of range for 3 modules"):
        stack.blocks[3]
    with pytest.raises(TypeError, match="ModuleList: expected a Module, got a int"):
        stack.blocks.append(3)
    with pytest.raises(NotImplementedError, match="ModuleList has no forward"):
        stack.blocks(Tensor(np.zeros(3)))


def test_sequential_state_dict_copies_into_pytorch_and_gives_its_outputs(rng):
    torch = pytest.importorskip("torch")
    ours = mlp()
    theirs = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    theirs.load_state_dict({k: torch.from_numpy(v) for k, v in ours.state_dict().items()})
    x = rng.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(ours(Tensor(x)).data, theirs(torch.from_numpy(x)).detach().numpy(),
                               rtol=1e-5, atol=1e-6)


# ---- label-smoothed cross-entropy ----------------------------------------------------------------

@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_label_smoothed_cross_entropy_gradcheck_with_ignore_index(rng, reduction):
    logits = Tensor(rng.standard_normal((2, 3, 5)), requires_grad=True)
    targets = np.array([[1, 0, -1], [4, -1, 2]])
    assert gradcheck(lambda z: F.cross_entropy(z, targets, ignore_index=-1, reduction=reduction,
                                               label_smoothing=0.2), logits)


def test_label_smoothing_is_the_loss_against_the_smoothed_target(rng):
    logits = rng.standard_normal((4, 6))
    targets = np.array([0, 5, 2, 2])
    eps, C = 0.1, 6
    q = np.full((4, C), eps / C)
    q[np.arange(4), targets] += 1 - eps
    log_p = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    expected = -(q * log_p).sum(axis=-1).mean()
    loss = F.cross_entropy(Tensor(logits), targets, label_smoothing=eps)
    np.testing.assert_allclose(loss.data, expected, rtol=1e-12)
    assert abs(loss.data - F.cross_entropy(Tensor(logits), targets).data) > 1e-3


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_label_smoothing_out_of_range_is_refused_naming_it(bad):
    with pytest.raises(ValueError, match="cross_entropy: label_smoothing must be") as error:
        F.cross_entropy(Tensor(np.zeros((2, 3))), np.array([0, 1]), label_smoothing=bad)
    assert "\n" not in str(error.value)


# ---- the learning-rate schedule ------------------------------------------------------------------

def an_optimiser(lr=1.0):
    return optim.Adam([nn.Parameter(np.zeros(2))], lr=lr)


def test_noam_rate_rises_linearly_peaks_at_warmup_then_falls_as_inverse_sqrt():
    def rate(step_num):
        return noam_lrate(step_num, d_model=512, warmup_steps=4000)
    assert rate(1) == pytest.approx(512 ** -0.5 * 4000 ** -1.5)
    assert rate(2000) == pytest.approx(rate(1) * 2000)                    # linear warm-up
    assert rate(4000) == pytest.approx((512 * 4000) ** -0.5)              # the peak
    assert rate(4001) < rate(4000)
    assert rate(16000) == pytest.approx(rate(4000) / 2)                   # 1/sqrt(step_num)


def test_noam_schedule_sets_the_optimisers_lr_for_each_update():
    opt = an_optimiser(lr=2.0)
    schedule = NoamLR(opt, d_model=16, warmup_steps=3)
    seen = []
    for _ in range(6):
        seen.append(opt.lr)                  # the lr this update uses
        schedule.step()
    assert seen == pytest.approx([2.0 * noam_lrate(k, 16, 3) for k in range(1, 7)])
    assert schedule.get_last_lr() == [opt.lr] and schedule.last_epoch == 6


def test_noam_schedule_resumes_from_its_state_dict():
    first = NoamLR(an_optimiser(), d_model=8, warmup_steps=5)
    for _ in range(7):
        first.step()
    opt = an_optimiser()
    second = NoamLR(opt, d_model=8, warmup_steps=5)
    second.load_state_dict(first.state_dict())
    assert opt.lr == first.optimizer.lr and second.last_epoch == 7


def test_noam_schedule_refuses_a_bad_setting_naming_it():
    with pytest.raises(ValueError, match=r"NoamLR: warmup_steps must be an integer in \[1, "
                                         r"9007199254740992\], got 0$"):
        NoamLR(an_optimiser(), d_model=8, warmup_steps=0)
    with pytest.raises(TypeError, match="LambdaLR: expected an optimiser with an lr, got a list"):
        LambdaLR([], lambda e: 1.0)


def test_noam_schedule_equals_pytorch_lambda_lr():
    torch = pytest.importorskip("torch")
    d_model, warmup = 32, 10
    param = torch.nn.Parameter(torch.zeros(2))
    theirs_opt = torch.optim.Adam([param], lr=0.5)
    theirs = torch.optim.lr_scheduler.LambdaLR(
        theirs_opt, lambda e: noam_lrate(e + 1, d_model, warmup))
    ours = NoamLR(an_optimiser(lr=0.5), d_model=d_model, warmup_steps=warmup)
    for _ in range(40):
        assert ours.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-15)
        theirs_opt.step()
        theirs.step()
        ours.step()
