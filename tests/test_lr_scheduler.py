"""LambdaLR and NoamLR as PyTorch's: every schedule on an optimiser starts from its initial_lr
(kept on the optimiser and in its state_dict), so a second schedule does not compound the first;
and a schedule never sets an lr that the optimiser itself would refuse (inf, NaN, negative)."""

import math

import numpy as np
import pytest

from minigrad import nn, optim
from minigrad.checkpoint import load, save
from minigrad.optim.lr_scheduler import LambdaLR, NoamLR, noam_lrate


def parameters():
    return [nn.Parameter(np.zeros(2))]


@pytest.mark.parametrize("make", [optim.SGD, optim.Adam], ids=["sgd", "adam"])
def test_a_second_schedule_on_the_same_optimiser_starts_from_the_initial_lr(make):
    opt = make(parameters(), lr=1.0)
    LambdaLR(opt, lambda e: 0.5)
    second = LambdaLR(opt, lambda e: 0.5)
    assert opt.lr == 0.5 and second.base_lr == 1.0 and opt.initial_lr == 1.0   # not 0.25
    second.step()
    assert opt.lr == 0.5


def test_two_schedules_on_one_optimiser_agree_with_pytorch_step_by_step():
    torch = pytest.importorskip("torch")
    theirs_opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=0.3)
    ours_opt = optim.SGD(parameters(), lr=0.3)
    theirs = [torch.optim.lr_scheduler.LambdaLR(theirs_opt, lambda e: 0.9 ** e),
              torch.optim.lr_scheduler.LambdaLR(theirs_opt, lambda e: noam_lrate(e + 1, 8, 3))]
    ours = [LambdaLR(ours_opt, lambda e: 0.9 ** e), NoamLR(ours_opt, d_model=8, warmup_steps=3)]
    assert ours_opt.lr == pytest.approx(theirs_opt.param_groups[0]["lr"], rel=1e-15)
    for step in range(6):
        theirs_opt.step()                                       # (no gradient: no update)
        for schedule in (theirs[step % 2], ours[step % 2]):     # one of the two steps, in turn
            schedule.step()
        assert ours_opt.lr == pytest.approx(theirs_opt.param_groups[0]["lr"], rel=1e-15)
        for mine, pytorchs in zip(ours, theirs):    # each its own last lr, not the optimiser's
            assert mine.get_last_lr() == pytest.approx(pytorchs.get_last_lr(), rel=1e-15)
    assert ours[0].get_last_lr() != ours[1].get_last_lr()
    assert ours_opt.initial_lr == theirs_opt.param_groups[0]["initial_lr"] == 0.3
    assert ours_opt.state_dict()["param_groups"][0]["initial_lr"] == 0.3


def test_initial_lr_is_in_the_state_dict_only_once_a_schedule_is_made():
    opt = optim.Adam(parameters(), lr=0.01)
    assert "initial_lr" not in opt.state_dict()["param_groups"][0]
    NoamLR(opt, d_model=4, warmup_steps=2)
    group = opt.state_dict()["param_groups"][0]
    assert group["initial_lr"] == 0.01 and group["lr"] == pytest.approx(0.01 * noam_lrate(1, 4, 2))


def test_a_resumed_optimiser_keeps_its_initial_lr_through_a_file(tmp_path):
    params = parameters()
    opt = optim.SGD(params, lr=2.0)
    schedule = LambdaLR(opt, lambda e: 1 / (e + 1))
    for _ in range(3):
        schedule.step()
    save({"optimizer": opt.state_dict(), "schedule": schedule.state_dict()}, tmp_path / "c.npz")
    saved = load(tmp_path / "c.npz")
    resumed = optim.SGD(params, lr=123.0)
    resumed.load_state_dict(saved["optimizer"])
    assert resumed.initial_lr == 2.0 and resumed.lr == pytest.approx(0.5)
    again = LambdaLR(resumed, lambda e: 1 / (e + 1))        # starts from 2.0, not 0.5 or 123
    again.load_state_dict(saved["schedule"])
    assert again.base_lr == 2.0 and resumed.lr == pytest.approx(0.5) and again.last_epoch == 3
    again.step()
    assert resumed.lr == pytest.approx(2.0 / 5)


def test_a_state_dict_without_initial_lr_still_loads_and_drops_it_as_pytorch():
    opt = optim.SGD(parameters(), lr=1.0)
    LambdaLR(opt, lambda e: 0.5)
    opt.load_state_dict(optim.SGD(parameters(), lr=0.1).state_dict())
    assert opt.lr == 0.1 and opt.initial_lr is None


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0, "1.0"])
def test_load_state_dict_refuses_a_bad_initial_lr_naming_it(value):
    state = optim.SGD(parameters(), lr=1.0).state_dict()
    state["param_groups"][0]["initial_lr"] = value
    with pytest.raises(ValueError, match="^SGD.load_state_dict: initial_lr must be a finite "):
        optim.SGD(parameters(), lr=1.0).load_state_dict(state)


@pytest.mark.parametrize("factor, shown", [(math.inf, "inf, so lr = base_lr 0.5 * inf = inf"),
                                           (math.nan, "nan, so lr = base_lr 0.5 * nan = nan"),
                                           (-2, "-2, so lr = base_lr 0.5 * -2 = -1.0")])
def test_a_schedule_refuses_an_lr_the_optimiser_would_refuse_naming_itself_and_the_step(
        factor, shown):
    opt = optim.SGD(parameters(), lr=0.5)
    schedule = LambdaLR(opt, lambda e: 1.0 if e < 3 else factor)
    schedule.step()
    schedule.step()
    with pytest.raises(ValueError) as raised:
        schedule.step()
    assert str(raised.value) == (f"LambdaLR: step 3: lr_lambda(3) returned {shown}; an lr must "
                                 f"be a finite number >= 0")
    assert opt.lr == 0.5 and schedule.last_epoch == 2          # nothing changed
    with pytest.raises(ValueError, match="^LambdaLR: step 0: lr_lambda"):
        LambdaLR(opt, lambda e: factor)


def test_a_schedule_refuses_a_factor_that_is_not_a_number():
    with pytest.raises(TypeError, match=r"^LambdaLR: step 0: lr_lambda\(0\) returned None "
                                        r"\(NoneType\), not a number$"):
        LambdaLR(optim.SGD(parameters(), lr=0.5), lambda e: None)


def test_load_state_dict_refuses_a_step_whose_lr_is_bad_and_changes_nothing():
    opt = optim.SGD(parameters(), lr=1.0)
    schedule = LambdaLR(opt, lambda e: 1.0 if e < 5 else math.inf)
    with pytest.raises(ValueError, match="^LambdaLR: step 7: "):
        schedule.load_state_dict({"base_lr": 3.0, "last_epoch": 7})
    assert (schedule.base_lr, schedule.last_epoch, opt.lr) == (1.0, 0, 1.0)
