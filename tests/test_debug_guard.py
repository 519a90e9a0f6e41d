"""guard_saved(): an array saved for backward and changed in place is caught when backward
reaches the op, naming the op and the tensor; optimiser steps between iterations are not."""

import gc

import numpy as np
import pytest

from minigrad import Tensor, autograd, debug, nn, no_grad, optim

pytestmark = pytest.mark.filterwarnings("error")


def test_a_changed_input_is_caught_naming_the_op_and_the_tensor():
    w = Tensor([1.0, 2.0, 3.0], requires_grad=True, name="w")
    with debug.guard_saved():
        loss = (w * w).sum()
        w.data[0] = 5.0                         # Mul saved w's own array
        with pytest.raises(debug.SavedArrayError) as error:
            loss.backward()
    message = str(error.value)
    assert message.startswith("Mul.backward would use self.a, an array saved for backward: the "
                              "data of input 0, 'w' (a leaf, shape (3,)), changed in place after "
                              "the forward.")
    assert w.grad is None                       # stopped before any gradient was added
    assert autograd.watchers == []


def test_a_changed_output_is_caught_too():
    x = Tensor([0.5, 1.0], requires_grad=True)
    with debug.guard_saved():
        y = x.exp()                             # Exp saves its output, y's array
        loss = y.sum()
        y.data *= 2
        with pytest.raises(debug.SavedArrayError, match=r"Exp.backward would use self.y.*the "
                                                        r"data of its output, unnamed \(made by "
                                                        r"Exp, shape \(2,\)\)"):
            loss.backward()


def test_a_changed_index_array_is_caught():
    x = Tensor(np.arange(5.0), requires_grad=True)
    ids = np.array([0, 0, 3])
    with debug.guard_saved():
        y = x[ids]
        loss = y.sum()
        ids[1] = 4                              # the caller's array: GetItem kept its own copy
        y.creator.index[1] = 4                  # the copy GetItem kept, changed
        with pytest.raises(debug.SavedArrayError, match=r"GetItem.backward would use "
                                                        r"self.index, .*changed in place after"):
            loss.backward()


def test_unchanged_arrays_pass_and_nothing_is_made_read_only():
    w = Tensor([1.0, 2.0], requires_grad=True, name="w")
    with debug.guard_saved():
        loss = (w * w).tanh().sum()
        assert w.data.flags.writeable and loss.creator.inputs[0].data.flags.writeable
        loss.backward()
        loss.backward()                         # a second backward through the same graph
    np.testing.assert_allclose(w.grad, 2 * (4 * w.data / np.cosh(w.data ** 2) ** 2) / 2)


def test_training_steps_with_an_optimiser_are_not_errors():
    rng = np.random.default_rng(0)
    model = nn.Linear(3, 2).double()
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = Tensor(rng.standard_normal((4, 3)))
    losses = []
    with debug.guard_saved():
        for _ in range(3):
            opt.zero_grad()
            loss = (model(x) ** 2).mean()       # a new graph saves the new weights
            loss.backward()
            opt.step()                          # in place, while `loss`'s graph is alive
            losses.append(loss.item())
        assert losses[-1] < losses[0]
        with pytest.raises(debug.SavedArrayError, match="MatMul.backward would use self.b"):
            loss.backward()                     # but this runs through the stepped weights


def test_without_the_guard_backward_quietly_uses_the_new_values():
    w = Tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    w.data[:] = [10.0, 20.0]
    loss.backward()
    np.testing.assert_array_equal(w.grad, [20.0, 40.0])   # the slope at values never run


def test_ops_outside_the_graph_are_not_fingerprinted_and_graphs_are_freed():
    x = Tensor([1.0, 2.0], requires_grad=True)
    with debug.guard_saved() as guard:
        with no_grad():
            x * 2
        assert len(guard.fingerprints) == 0
        y = x * 3
        assert len(guard.fingerprints) == 1
        del y
        gc.collect()
        assert len(guard.fingerprints) == 0     # the guard does not keep ops alive


def test_the_default_version_check_raises_the_same_error_and_the_guard_speaks_first():
    from minigrad import versions
    assert debug.SavedArrayError is versions.SavedArrayError
    x = Tensor([0.5, 1.0], requires_grad=True)
    y = x.exp()
    loss = y.sum()
    y.data *= 2                                 # seen by the version check, without the guard
    with pytest.raises(debug.SavedArrayError, match="Exp.backward would use self.y, an array "
                                                    "saved for backward: the data of its output"):
        loss.backward()
    with debug.guard_saved():                   # both would raise: the guard's message comes
        y = x.exp()
        loss = y.sum()
        y.data *= 2
        with pytest.raises(debug.SavedArrayError, match="saved for backward: the data of its "
                                                        "output"):
            loss.backward()
