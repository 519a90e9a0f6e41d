"""The attention coursework graders (python -m attention.grade): the references pass and agree
with attention's own modules and with PyTorch's multi-head attention and causal
scaled_dot_product_attention; wrong solutions fail with a message naming the wrong output or
gradient and the case (the Transformer exercises' mistakes: test_coursework_transformer.py)."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minigrad import Tensor
from attention import GeneralAttention, MultiHeadAttention, SinusoidalPositions
from attention.grade import SolutionFailed, case_inputs, grade
from tests.reference import attention_reference as reference

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent


def failure(exercise, path):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def reference_file(tmp_path):
    return student_file(tmp_path, Path(reference.__file__).read_text(encoding="utf-8"))


@pytest.mark.parametrize("exercise", ["general_attention", "multi_head", "encoder_block"])
def test_the_reference_file_passes_its_checker(tmp_path, exercise):
    assert grade(exercise, reference_file(tmp_path)).startswith(f"passed: {exercise}: ")


def test_command_line_runs_and_the_checker_does_not_import_seq2seq(tmp_path):
    path = reference_file(tmp_path)
    code = ("import sys; from attention.grade.__main__ import main, EXERCISES; "
            f"status = main(EXERCISES, 'attention.grade', ['multi_head', {str(path)!r}]); "
            "print(status, [m for m in sys.modules if m.startswith('seq2seq')])")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("passed: multi_head") and run.stdout.endswith("0 []\n")
    run = subprocess.run([sys.executable, "-m", "attention.grade", "general_attention",
                          str(tmp_path / "missing.py")], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1 and run.stderr.startswith("failed: no such file")


# ---- the references against the project's modules and PyTorch ------------------------------

@pytest.mark.parametrize("number", [1, 2, 3])
def test_reference_general_attention_is_the_general_attention_module(number):
    arrays, settings = case_inputs("general_attention", number)
    dq, dk = arrays["weight"].shape
    module = GeneralAttention(dq, dk).double()
    module.W.weight.data = arrays["weight"].copy()
    inputs = [Tensor(arrays[n]) for n in ("query", "keys", "values", "weight")]
    context, weights = reference.general_attention(*inputs, **settings)
    expected_context, expected_weights = module(*inputs[:3], **settings)
    np.testing.assert_allclose(context.data, expected_context.data, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(weights.data, expected_weights.data, rtol=1e-12, atol=1e-14)
    if "mask" in settings:
        assert np.all(weights.data[0, :, -2:] == 0)        # masked keys get no weight


def multi_head_module(arrays, num_heads):
    embed = arrays["query"].shape[-1]
    module = MultiHeadAttention(embed, num_heads).double()
    module.in_proj_weight.data = arrays["in_proj_weight"].copy()
    module.in_proj_bias.data = arrays["in_proj_bias"].copy()
    module.out_proj.weight.data = arrays["out_proj_weight"].copy()
    module.out_proj.bias.data = arrays["out_proj_bias"].copy()
    return module


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_reference_multi_head_is_the_multi_head_module(number):
    arrays, settings = case_inputs("multi_head", number)
    module = multi_head_module(arrays, settings["num_heads"])
    mine = [Tensor(a) for a in arrays.values()]
    output, weights = reference.multi_head_attention(*mine, **settings)
    expected, expected_weights = module(*mine[:3], mask=settings.get("mask"))
    np.testing.assert_allclose(output.data, expected.data, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(weights.data, expected_weights.data, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_reference_multi_head_matches_torch_outputs_and_every_gradient(number):
    torch = pytest.importorskip("torch")
    arrays, settings = case_inputs("multi_head", number)
    embed, heads = arrays["query"].shape[-1], settings["num_heads"]
    layer = torch.nn.MultiheadAttention(embed, heads, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.from_numpy(arrays["in_proj_weight"]))
        layer.in_proj_bias.copy_(torch.from_numpy(arrays["in_proj_bias"]))
        layer.out_proj.weight.copy_(torch.from_numpy(arrays["out_proj_weight"]))
        layer.out_proj.bias.copy_(torch.from_numpy(arrays["out_proj_bias"]))
    q, k, v = (torch.tensor(arrays[n], requires_grad=True) for n in ("query", "key", "value"))
    mask = settings.get("mask")
    attn_mask = None if mask is None else torch.from_numpy(~mask)     # PyTorch: True = blocked
    out_torch, weights_torch = layer(q, k, v, attn_mask=attn_mask)
    rng = np.random.default_rng(number)
    up_out = rng.standard_normal(out_torch.shape)
    up_weights = rng.standard_normal(weights_torch.shape)
    ((out_torch * torch.from_numpy(up_out)).sum()
     + (weights_torch * torch.from_numpy(up_weights)).sum()).backward()

    mine = {n: Tensor(a, requires_grad=True) for n, a in arrays.items()}
    out, weights = reference.multi_head_attention(*mine.values(), **settings)
    ((out * Tensor(up_out)).sum() + (weights * Tensor(up_weights)).sum()).backward()
    np.testing.assert_allclose(out.data, out_torch.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights.data, weights_torch.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    theirs = {"query": q.grad, "key": k.grad, "value": v.grad,
              "in_proj_weight": layer.in_proj_weight.grad, "in_proj_bias": layer.in_proj_bias.grad,
              "out_proj_weight": layer.out_proj.weight.grad,
              "out_proj_bias": layer.out_proj.bias.grad}
    for name, grad in theirs.items():
        np.testing.assert_allclose(mine[name].grad, grad.numpy(), rtol=1e-9, atol=1e-11,
                                   err_msg=name)


TORCH_NAMES = {"in_proj_weight": "self_attn.in_proj_weight",
               "in_proj_bias": "self_attn.in_proj_bias",
               "out_proj_weight": "self_attn.out_proj.weight",
               "out_proj_bias": "self_attn.out_proj.bias"}


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_reference_encoder_block_matches_torch_outputs_and_every_gradient(number):
    """torch.nn.TransformerEncoderLayer (dropout 0, ReLU, batch_first) with the case's weights
    copied in: the output and the gradient of x and of every weight."""
    torch = pytest.importorskip("torch")
    arrays, settings = case_inputs("encoder_block", number)
    (hidden, embed), heads = arrays["linear1_weight"].shape, settings["num_heads"]
    norm_first = settings.get("norm_first", True)
    layer = torch.nn.TransformerEncoderLayer(embed, heads, hidden, dropout=0.0, batch_first=True,
                                             norm_first=norm_first, dtype=torch.float64)
    weights = dict(layer.named_parameters())
    theirs = {name: weights[TORCH_NAMES.get(name, name.replace("_weight", ".weight")
                                            .replace("_bias", ".bias"))]
              for name in arrays if name != "x"}
    assert len(set(map(id, theirs.values()))) == len(weights) == 12     # every one, once
    with torch.no_grad():
        for name, parameter in theirs.items():
            parameter.copy_(torch.from_numpy(arrays[name]))
    x = torch.tensor(arrays["x"], requires_grad=True)
    mask = settings.get("mask")
    padding = None if mask is None else torch.from_numpy(~mask[:, 0, :])   # True = padding
    y_torch = layer(x, src_key_padding_mask=padding)
    upstream = np.random.default_rng(number).standard_normal(y_torch.shape)
    (y_torch * torch.from_numpy(upstream)).sum().backward()

    mine = {n: Tensor(a, requires_grad=True) for n, a in arrays.items()}
    y = reference.encoder_block(*mine.values(), **settings)
    (y * Tensor(upstream)).sum().backward()
    np.testing.assert_allclose(y.data, y_torch.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mine["x"].grad, x.grad.numpy(), rtol=1e-9, atol=1e-11)
    for name, parameter in theirs.items():
        np.testing.assert_allclose(mine[name].grad, parameter.grad.numpy(), rtol=1e-9,
                                   atol=1e-11, err_msg=name)


# ---- wrong solutions ----------------------------------------------------------------------------

def test_general_attention_that_forgets_the_mask_names_the_masked_case(tmp_path):
    path = student_file(tmp_path, """
        from attention import dot_product_attention

        def general_attention(query, keys, values, weight, mask=None):
            return dot_product_attention(query, keys @ weight.T, values)
    """)
    message = failure("general_attention", path)
    assert message.startswith("general_attention: the output context is wrong for case 3 of 3, "
                              '"a padding mask')
    assert "mask (2, 1, 5)" in message
    assert "case_inputs('general_attention', 3)" in message


def test_general_attention_with_w_on_the_wrong_side_fails_on_the_first_case(tmp_path):
    """q^T W^T k instead of q^T W k: the shapes do not fit when dq != dk."""
    path = student_file(tmp_path, """
        from attention import dot_product_attention

        def general_attention(query, keys, values, weight, mask=None):
            return dot_product_attention(query @ weight.T, keys, values, mask=mask)
    """)
    message = failure("general_attention", path)
    assert 'calling your general_attention on case 1 of 3, "one query per example' in message
    assert "raised ValueError" in message and "your file, line 5" in message


def test_multi_head_without_the_scale_names_the_output(tmp_path):
    source = Path(reference.__file__).read_text(encoding="utf-8")
    unscaled = source.replace("mask=mask, scale=True)", "mask=mask)")
    assert unscaled != source
    message = failure("multi_head", student_file(tmp_path, unscaled))
    assert message.startswith("multi_head: the output attn_output is wrong for case 1 of 4, "
                              '"self-attention, 2 heads of 2" (query (2, 3, 4), key (2, 3, 4)')
    assert "num_heads=2" in message


def test_multi_head_returning_every_heads_weights_names_the_shape(tmp_path):
    source = Path(reference.__file__).read_text(encoding="utf-8")
    per_head = source.replace("average = F.stack(weights, axis=0).mean(axis=0)",
                              "average = F.stack(weights, axis=1)")
    assert per_head != source
    message = failure("multi_head", student_file(tmp_path, per_head))
    assert message.startswith("multi_head: the output attn_weights has shape (2, 2, 3, 3), "
                              "expected (2, 3, 3), for case 1 of 4")


def test_multi_head_with_heads_taking_interleaved_features_is_caught(tmp_path):
    """Head h must take features h*Dh .. (h+1)*Dh - 1; taking every num_heads-th feature
    instead is a different (valid-looking) model with different numbers."""
    source = Path(reference.__file__).read_text(encoding="utf-8")
    interleaved = source.replace("rows = slice(head * head_dim, (head + 1) * head_dim)",
                                 "rows = slice(head, None, num_heads)")
    assert interleaved != source
    message = failure("multi_head", student_file(tmp_path, interleaved))
    assert "the output attn_output is wrong for case 1 of 4" in message


# ---- the Transformer's exercises: positions and the causal mask ------------------------------

@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_reference_positions_are_the_papers_formula_and_the_projects_sinusoids(number):
    arrays, _ = case_inputs("positional_encoding", number)
    x = arrays["x"]
    length, d_model = x.shape[-2:]
    y = reference.add_positions(Tensor(x)).data
    by_formula = np.array([[math.sin(pos / 10000 ** (j / d_model)) if j % 2 == 0
                            else math.cos(pos / 10000 ** ((j - 1) / d_model))
                            for j in range(d_model)] for pos in range(length)])
    np.testing.assert_allclose(y - x, np.broadcast_to(by_formula, x.shape), rtol=0, atol=1e-12)
    ours = SinusoidalPositions(d_model, max_len=length)(Tensor(x)).data
    np.testing.assert_allclose(y, ours, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_reference_causal_attention_matches_torch_outputs_and_every_gradient(number):
    """Against F.scaled_dot_product_attention(is_causal=True) for the context, and softmax of the
    scores with torch's own causal fill for the weights."""
    torch = pytest.importorskip("torch")
    arrays, _ = case_inputs("causal_attention", number)
    q, k, v = (torch.tensor(arrays[n], requires_grad=True) for n in ("query", "keys", "values"))
    context_torch = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    length = q.shape[-2]
    scores = q @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    blocked = torch.ones(length, length, dtype=torch.bool).triu(1)
    weights_torch = scores.masked_fill(blocked, float("-inf")).softmax(-1)
    rng = np.random.default_rng(number)
    up_context = rng.standard_normal(context_torch.shape)
    up_weights = rng.standard_normal(weights_torch.shape)
    ((context_torch * torch.from_numpy(up_context)).sum()
     + (weights_torch * torch.from_numpy(up_weights)).sum()).backward()

    mine = {n: Tensor(a, requires_grad=True) for n, a in arrays.items()}
    context, weights = reference.causal_attention(*mine.values())
    ((context * Tensor(up_context)).sum() + (weights * Tensor(up_weights)).sum()).backward()
    np.testing.assert_allclose(context.data, context_torch.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    np.testing.assert_allclose(weights.data, weights_torch.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    assert np.all(weights.data[..., ~np.tri(length, dtype=bool)] == 0)     # exactly 0
    for name, grad in (("query", q.grad), ("keys", k.grad), ("values", v.grad)):
        np.testing.assert_allclose(mine[name].grad, grad.numpy(), rtol=1e-9, atol=1e-11,
                                   err_msg=name)
