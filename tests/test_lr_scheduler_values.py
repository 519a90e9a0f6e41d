"""What a schedule does with the odd values a careless lr_lambda or a forged state dict gives:
an int too large for a float, NumPy scalars and 0-d arrays (taken, as PyTorch takes them), -0.0,
and step counts that are huge, fractional, booleans or NaN."""

import math

import numpy as np
import pytest

from minigrad import nn, optim
from minigrad.optim.lr_scheduler import LambdaLR, NoamLR


def sgd(lr=0.5):
    return optim.SGD([nn.Parameter(np.zeros(2))], lr=lr)


def test_a_factor_too_large_for_a_float_is_a_value_error_naming_the_step():
    opt = sgd()
    schedule = LambdaLR(opt, lambda e: 1 if e < 2 else 10 ** 400)
    schedule.step()
    with pytest.raises(ValueError) as raised:
        schedule.step()
    assert str(raised.value) == ("LambdaLR: step 2: lr_lambda(2) returned an int of 1329 bits, "
                                 "too large for a float; an lr must be a finite number >= 0")
    assert opt.lr == 0.5 and schedule.last_epoch == 1
    with pytest.raises(ValueError, match="^LambdaLR: step 0: .* too large for a float"):
        LambdaLR(sgd(lr=0.0), lambda e: 10 ** 400)        # 0 * 10**400 does not save it
    with pytest.raises(ValueError, match="returned an int of 16610 bits, too large for a float"):
        LambdaLR(sgd(), lambda e: 10 ** 5000)             # too long for str() even


FACTORS = [np.array(0.5), np.float64(0.5), np.float32(0.5), np.int64(2), np.array(3),
           np.array(True), np.True_]


@pytest.mark.parametrize("factor", FACTORS, ids=repr)
def test_a_numpy_scalar_or_0d_array_factor_is_taken_and_the_lr_is_a_python_float(factor):
    opt = sgd()
    schedule = LambdaLR(opt, lambda e: factor)
    assert type(opt.lr) is float and opt.lr == 0.5 * float(factor)
    assert schedule.get_last_lr() == [0.5 * float(factor)]


@pytest.mark.parametrize("factor", FACTORS, ids=repr)
def test_numpy_factors_give_the_lr_pytorch_gives(factor):
    torch = pytest.importorskip("torch")
    theirs = torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=0.5)
    torch.optim.lr_scheduler.LambdaLR(theirs, lambda e: factor)
    ours = sgd()
    LambdaLR(ours, lambda e: factor)
    assert ours.lr == float(theirs.param_groups[0]["lr"])


def test_an_array_of_more_than_one_value_is_not_a_factor():
    with pytest.raises(TypeError, match=r"^LambdaLR: step 0: lr_lambda\(0\) returned "
                                        r"array\(\[0.5\]\) \(ndarray\), not a number$"):
        LambdaLR(sgd(), lambda e: np.array([0.5]))


def test_a_factor_of_minus_zero_gives_lr_zero_as_zero_does_and_pytorch_accepts_it():
    opt = sgd()
    LambdaLR(opt, lambda e: -0.0)
    assert opt.lr == 0.0 and math.copysign(1.0, opt.lr) == 1.0     # stored as 0.0, not -0.0
    minus_zero = optim.SGD([nn.Parameter(np.zeros(2))], lr=-0.0)     # as lr=0: accepted
    LambdaLR(minus_zero, lambda e: 1.0)
    assert math.copysign(1.0, minus_zero.lr) == 1.0


def test_a_negative_factor_is_refused_even_on_a_base_lr_of_zero():
    with pytest.raises(ValueError) as raised:
        LambdaLR(sgd(lr=0.0), lambda e: -2)           # 0.0 * -2 is -0.0, which is not < 0
    assert str(raised.value) == ("LambdaLR: step 0: lr_lambda(0) returned -2, a negative "
                                 "factor; lr_lambda must give a finite number >= 0")


@pytest.mark.parametrize("value, problem", [
    (10 ** 30, "must be an integer in [0, 9007199254740992], got "
               "1000000000000000000000000000000 (past 2**53 a float no longer tells one step "
               "from the next)"),
    (2 ** 53 + 1, "must be an integer in [0, 9007199254740992], got 9007199254740993"),
    (-1, "must be an integer in [0, 9007199254740992], got -1"),
    (True, "must be an integer in [0, 9007199254740992], got True (bool)"),
    (math.nan, "must be an integer in [0, 9007199254740992], got nan (float)"),
    (3.0, "must be an integer in [0, 9007199254740992], got 3.0 (float)"),
    ("3", "must be an integer in [0, 9007199254740992], got '3' (str)")])
@pytest.mark.parametrize("make", [lambda opt: LambdaLR(opt, lambda e: 1.0),
                                  lambda opt: NoamLR(opt, d_model=4, warmup_steps=2)],
                         ids=["LambdaLR", "NoamLR"])
def test_load_state_dict_refuses_a_step_count_that_is_not_a_sane_integer(make, value, problem):
    opt = sgd()
    schedule = make(opt)
    lr = opt.lr
    with pytest.raises(ValueError) as raised:           # a TypeError for the wrong types, too
        schedule.load_state_dict({"base_lr": 0.5, "last_epoch": value})
    name = type(schedule).__name__
    assert str(raised.value).startswith(f"{name}.load_state_dict: last_epoch {problem}")
    assert "\n" not in str(raised.value)
    assert (schedule.last_epoch, opt.lr) == (0, lr)


def test_load_state_dict_takes_a_numpy_step_count_as_a_python_int():
    opt = sgd()
    schedule = NoamLR(opt, d_model=4, warmup_steps=2)
    schedule.load_state_dict({"base_lr": 0.5, "last_epoch": np.int64(2 ** 53)})
    assert type(schedule.last_epoch) is int and schedule.last_epoch == 2 ** 53
    assert type(opt.lr) is float and opt.lr > 0


@pytest.mark.parametrize("state, said", [
    ({"base_lr": 10 ** 400, "last_epoch": 1}, "base_lr must be a finite number >= 0, got an int "
                                              "of 1329 bits"),
    ({"base_lr": 0.5, "last_epoch": -1}, "last_epoch must be an integer in [0, "
                                         "9007199254740992], got -1"),
])
def test_load_state_dict_names_the_real_fault_in_one_line(state, said):
    schedule = LambdaLR(sgd(), lambda e: 1.0)
    with pytest.raises(ValueError) as raised:
        schedule.load_state_dict(state)
    assert said in str(raised.value) and "2**53" not in str(raised.value)


@pytest.mark.parametrize("name", ["d_model", "warmup_steps"])
def test_noam_sizes_too_large_for_a_float_are_refused_naming_them(name):
    sizes = {"d_model": 8, "warmup_steps": 4, name: 2 ** 1100}
    with pytest.raises(ValueError, match=f"NoamLR: {name} must be an integer in"):
        NoamLR(sgd(), **sizes)
