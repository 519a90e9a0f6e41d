"""minigrad.nn: Module (finding parameters, state dicts, train/eval, dtypes, repr) and the layers
Linear, Embedding and Dropout, each gradchecked in float64 and compared with PyTorch."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minigrad
from minigrad import Tensor, gradcheck, nn


class Tagger(nn.Module):
    """A small model with every kind of attribute that the walk must go into."""

    def __init__(self):
        self.embedding = nn.Embedding(10, 4, padding_idx=0)
        self.lstm = nn.LSTM(4, 3)
        self.heads = [nn.Linear(3, 2), nn.Dropout(0.5)]
        self.extra = {"scale": nn.Parameter(np.ones(2, dtype=np.float32))}
        self.bias = nn.Parameter(np.zeros(2, dtype=np.float32))

    def forward(self, ids):
        outputs, _ = self.lstm(self.embedding(ids))                 # (B, T, 3)
        return self.heads[1](self.heads[0](outputs)) * self.extra["scale"] + self.bias


TAGGER_NAMES = ["embedding.weight", "lstm.weight_ih_l0", "lstm.weight_hh_l0", "lstm.bias_ih_l0",
                "lstm.bias_hh_l0", "heads.0.weight", "heads.0.bias", "extra.scale", "bias"]


def test_parameter_requires_grad_and_is_float32_unless_given_an_array():
    p = nn.Parameter([1.0, 2.0])
    assert isinstance(p, Tensor) and p.requires_grad and p.dtype == np.float32
    assert nn.Parameter(np.zeros(3)).dtype == np.float64          # an array keeps its dtype
    assert repr(p).startswith("Parameter(")
    (p * p).sum().backward()
    np.testing.assert_array_equal(p.grad, [2.0, 4.0])


def test_named_parameters_walk_attributes_lists_and_dicts_in_insertion_order():
    model = Tagger()
    assert [name for name, _ in model.named_parameters()] == TAGGER_NAMES
    assert [p.shape for p in model.parameters()][:2] == [(10, 4), (12, 4)]
    assert [name for name, _ in model.named_modules()] == ["", "embedding", "lstm", "heads.0",
                                                           "heads.1"]
    assert model.num_parameters() == 40 + 48 + 36 + 12 + 12 + 6 + 2 + 2 + 2


def test_a_shared_parameter_is_listed_once_but_saved_under_both_names():
    model = Tagger()
    model.heads[0].tied = model.lstm.bias_hh_l0                      # weight tying
    names = [name for name, _ in model.named_parameters()]
    assert names == TAGGER_NAMES and "heads.0.tied" not in names
    state = model.state_dict()
    assert "heads.0.tied" in state                                  # as in PyTorch
    model.load_state_dict(state)
    assert "    tied: shared with lstm.bias_hh_l0\n" in repr(model)


def test_a_reference_back_to_a_parent_is_not_followed():
    model = Tagger()
    model.heads[0].owner = model                                    # a cycle
    assert [name for name, _ in model.named_parameters()] == TAGGER_NAMES
    assert "owner: shared with the module itself" in repr(model)


def test_parameter_order_is_the_same_under_every_hash_seed():
    script = textwrap.dedent("""
        from minigrad import nn
        class Net(nn.Module):
            def __init__(self):
                self.zeta = nn.Linear(2, 2)
                self.alpha = {"q": nn.Linear(2, 1), "b": nn.Embedding(3, 2), "k": nn.Dropout()}
                self.mid = [nn.LSTMCell(2, 2), nn.Linear(1, 1)]
        print(" ".join(name for name, _ in Net().named_parameters()))
    """)
    orders = set()
    for seed in ("0", "1", "12345"):
        env = {"PYTHONHASHSEED": seed, "PATH": ""}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, check=True, cwd=str(_repo_root()))
        orders.add(out.stdout.strip())
    assert orders == {"zeta.weight zeta.bias alpha.q.weight alpha.q.bias alpha.b.weight "
                      "mid.0.weight_ih mid.0.weight_hh mid.0.bias_ih mid.0.bias_hh "
                      "mid.1.weight mid.1.bias"}


def _repo_root():
    from pathlib import Path
    return Path(minigrad.__file__).resolve().parent.parent


def test_zero_grad_train_and_eval():
    model = Tagger()
    model(np.array([[1, 2, 0]])).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())
    assert model.eval() is model
    assert [m.training for m in model.modules()] == [False] * 5
    model.train()
    assert [m.training for m in model.modules()] == [True] * 5


def test_state_dict_round_trip_copies_values_not_arrays():
    minigrad.manual_seed(0)
    model = Tagger().eval()
    ids = np.array([[1, 2, 3], [4, 0, 5]])
    before = model(ids).data
    state = model.state_dict()
    assert list(state) == TAGGER_NAMES
    state["bias"][0] = 99.0                             # a copy: the model is untouched
    assert model.bias.data[0] == 0.0
    minigrad.manual_seed(1)
    other = Tagger().eval()
    assert not np.allclose(other(ids).data, before)
    params = list(other.parameters())
    result = other.load_state_dict(model.state_dict())
    assert result == ([], [])
    np.testing.assert_array_equal(other(ids).data, before)
    assert list(other.parameters())[0] is params[0]                 # the same Parameter objects
    other.embedding.weight.data[1, 0] = 5.0                          # ... not sharing arrays
    assert model.embedding.weight.data[1, 0] != 5.0


def test_load_state_dict_names_missing_and_unexpected_keys_and_shape_mismatches():
    model = Tagger()
    state = model.state_dict()
    del state["lstm.bias_hh_l0"]
    state["lstm.weight_ih_l1"] = np.zeros((12, 4))
    with pytest.raises(RuntimeError, match=r"missing keys.*'lstm.bias_hh_l0'.*unexpected keys.*"
                                           r"'lstm.weight_ih_l1'"):
        model.load_state_dict(state)
    result = model.load_state_dict(state, strict=False)
    assert result.missing_keys == ["lstm.bias_hh_l0"]
    assert result.unexpected_keys == ["lstm.weight_ih_l1"]

    state = model.state_dict()
    state["heads.0.weight"] = np.zeros((3, 2))
    state["bias"] = np.full(2, 7.0)
    with pytest.raises(RuntimeError, match=r"shape mismatch for heads.0.weight: the state dict "
                                           r"has \(3, 2\), the model has \(2, 3\)"):
        model.load_state_dict(state, strict=False)
    assert model.bias.data[0] == 0.0                                 # nothing was copied


def test_repr_shows_the_tree_with_parameter_shapes():
    assert repr(Tagger()) == textwrap.dedent("""\
        Tagger()
          embedding: Embedding(10, 4, padding_idx=0)
            weight: (10, 4) float32
          lstm: LSTM(4, 3)
            weight_ih_l0: (12, 4) float32
            weight_hh_l0: (12, 3) float32
            bias_ih_l0: (12,) float32
            bias_hh_l0: (12,) float32
          heads.0: Linear(in_features=3, out_features=2, bias=True)
            weight: (2, 3) float32
            bias: (2,) float32
          heads.1: Dropout(p=0.5)
          extra.scale: (2,) float32
          bias: (2,) float32""")


def test_to_double_and_float_convert_parameters_and_gradients_in_place():
    model = Tagger()
    model(np.array([[1, 2]])).sum().backward()
    params = list(model.parameters())
    assert model.double() is model
    assert all(p.dtype == np.float64 and p.grad.dtype == np.float64 for p in model.parameters())
    assert list(model.parameters()) == params                       # the same objects
    assert model(np.array([[1, 2]])).dtype == np.float64
    model.float()
    assert {p.dtype for p in model.parameters()} == {np.dtype(np.float32)}
    with pytest.raises(TypeError, match="floating-point"):
        model.to(np.int64)


@pytest.mark.parametrize("make, x", [
    (lambda: nn.Linear(3, 2), np.zeros((4, 3))),
    (lambda: nn.LSTMCell(3, 2), np.zeros((4, 3))),
    (lambda: nn.LSTM(3, 2), np.zeros((4, 5, 3))),
])
def test_float64_input_to_a_float32_layer_is_an_error_naming_both_dtypes(make, x):
    layer = make()
    with pytest.raises(TypeError, match="input is float64 but the layer's parameters are float32"):
        layer(Tensor(x))
    assert layer(Tensor(x, dtype=np.float32))                       # the matching dtype works


# ---- Linear ----------------------------------------------------------------------------------

def test_linear_init_is_uniform_within_one_over_sqrt_fan_in_and_follows_the_seed():
    minigrad.manual_seed(3)
    a = nn.Linear(400, 300)
    minigrad.manual_seed(3)
    b = nn.Linear(400, 300)
    np.testing.assert_array_equal(a.weight.data, b.weight.data)
    assert a.weight.shape == (300, 400) and a.bias.shape == (300,)
    assert a.weight.dtype == np.float32
    bound = 1 / 20
    assert np.abs(a.weight.data).max() <= bound and np.abs(a.weight.data).max() > 0.99 * bound
    assert abs(a.weight.data.std() - bound / np.sqrt(3)) < 1e-3     # uniform's std
    assert not np.array_equal(nn.Linear(400, 300).weight.data, a.weight.data)
    assert nn.Linear(3, 2, bias=False).bias is None
    assert [n for n, _ in nn.Linear(3, 2, bias=False).named_parameters()] == ["weight"]


@pytest.mark.parametrize("shape", [(3,), (4, 3), (2, 4, 3)])
def test_linear_gradcheck_wrt_input_and_parameters(rng, shape):
    layer = nn.Linear(3, 2).double()
    x = Tensor(rng.standard_normal(shape), requires_grad=True)
    y = layer(x)
    assert y.shape == shape[:-1] + (2,)
    np.testing.assert_allclose(y.data, x.data @ layer.weight.data.T + layer.bias.data)
    assert gradcheck(lambda x, w, b: layer(x), x, layer.weight, layer.bias)


def test_linear_rejects_the_wrong_input_size():
    with pytest.raises(ValueError, match=r"expected inputs of shape \(\.\.\., 3\), got \(4, 5\)"):
        nn.Linear(3, 2)(Tensor(np.zeros((4, 5), dtype=np.float32)))


def test_linear_matches_pytorch_after_copying_the_state_dict(rng):
    torch = pytest.importorskip("torch")
    ours = nn.Linear(5, 3).double()
    theirs = torch.nn.Linear(5, 3).double()
    theirs.load_state_dict({k: torch.from_numpy(v) for k, v in ours.state_dict().items()})
    x = rng.standard_normal((2, 4, 5))
    upstream = rng.standard_normal((2, 4, 3))
    y = ours(Tensor(x))
    (y * Tensor(upstream)).sum().backward()
    ty = theirs(torch.from_numpy(x))
    (ty * torch.from_numpy(upstream)).sum().backward()
    np.testing.assert_allclose(y.data, ty.detach().numpy(), rtol=0, atol=1e-12)
    for name, p in ours.named_parameters():
        q = dict(theirs.named_parameters())[name]
        np.testing.assert_allclose(p.grad, q.grad.numpy(), rtol=0, atol=1e-10)
    back = nn.Linear(5, 3)                                          # and the other way round
    back.load_state_dict(theirs.state_dict())
    np.testing.assert_allclose(back.weight.data, ours.weight.data, rtol=1e-6)


# ---- Embedding --------------------------------------------------------------------------------

def test_embedding_init_is_standard_normal_with_a_zero_padding_row():
    minigrad.manual_seed(0)
    emb = nn.Embedding(1000, 20, padding_idx=3)
    w = emb.weight.data
    assert w.shape == (1000, 20) and w.dtype == np.float32
    np.testing.assert_array_equal(w[3], 0)
    assert abs(w.mean()) < 0.02 and abs(w.std() - 1) < 0.02
    assert nn.Embedding(5, 2, padding_idx=-1).padding_idx == 4


def test_embedding_takes_arrays_and_integer_tensors_and_the_padding_row_gets_no_gradient(rng):
    emb = nn.Embedding(6, 3, padding_idx=0).double()
    ids = np.array([[1, 0, 4], [4, 4, 0]])
    y = emb(ids)
    np.testing.assert_array_equal(y.data, emb.weight.data[ids])
    np.testing.assert_array_equal(emb(Tensor(ids, dtype=np.int64)).data, y.data)
    upstream = rng.standard_normal((2, 3, 3))
    (y * Tensor(upstream)).sum().backward()
    np.testing.assert_array_equal(emb.weight.grad[0], 0)
    np.testing.assert_allclose(emb.weight.grad[4], upstream[0, 2] + upstream[1, 0] + upstream[1, 1])
    np.testing.assert_array_equal(emb.weight.grad[[2, 3, 5]], 0)
    assert gradcheck(lambda w: emb(ids[ids != 0]), emb.weight)     # (padding excluded: its
    # true derivative is not zero; PyTorch, too, gives the padding row no gradient on purpose)


def test_embedding_rejects_out_of_range_and_non_integer_ids():
    emb = nn.Embedding(6, 3)
    with pytest.raises(IndexError, match="id 6 is out of range for an embedding of 6 rows"):
        emb(np.array([1, 6]))
    with pytest.raises(IndexError, match="out of range"):
        emb(np.array([-1]))
    with pytest.raises(TypeError, match="integers"):
        emb(np.array([1.0]))
    with pytest.raises(ValueError, match="padding_idx 6 is out of range"):
        nn.Embedding(6, 3, padding_idx=6)


def test_embedding_with_padding_matches_pytorch():
    torch = pytest.importorskip("torch")
    ours = nn.Embedding(7, 4, padding_idx=2).double()
    theirs = torch.nn.Embedding(7, 4, padding_idx=2).double()
    theirs.load_state_dict({k: torch.from_numpy(v) for k, v in ours.state_dict().items()})
    ids = np.array([[2, 1, 1, 6], [0, 2, 5, 1]])
    upstream = np.random.default_rng(1).standard_normal((2, 4, 4))
    (ours(ids) * Tensor(upstream)).sum().backward()
    out = theirs(torch.from_numpy(ids))
    (out * torch.from_numpy(upstream)).sum().backward()
    np.testing.assert_allclose(ours(ids).data, out.detach().numpy(), rtol=0, atol=0)
    np.testing.assert_allclose(ours.weight.grad, theirs.weight.grad.numpy(), rtol=0, atol=1e-12)


# ---- Dropout ----------------------------------------------------------------------------------

def test_dropout_scales_kept_units_while_training_and_passes_through_in_eval(rng):
    drop = nn.Dropout(0.25)
    x = Tensor(rng.standard_normal((200, 50)) + 3.0, requires_grad=True)
    minigrad.manual_seed(0)
    y = drop(x)
    kept = y.data != 0
    assert 0.7 < kept.mean() < 0.8                                   # about 1 - p kept
    np.testing.assert_allclose(y.data[kept], x.data[kept] / 0.75)
    upstream = rng.standard_normal(x.shape)
    (y * Tensor(upstream)).sum().backward()
    np.testing.assert_allclose(x.grad, np.where(kept, upstream / 0.75, 0))
    small = Tensor(rng.standard_normal((3, 4)), requires_grad=True)

    def same_mask(x):
        minigrad.manual_seed(1)                     # the same mask on every call
        return drop(x)
    assert gradcheck(same_mask, small)
    assert drop.eval()(x) is x
    with pytest.raises(ValueError, match="p must be in"):
        nn.Dropout(1.0)
