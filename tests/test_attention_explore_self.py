"""Self-attention and a Transformer block in the backprop explorer: `explore_self_attention` and
`python -m attention explore --self / --block`. The pages build, stay small, fold each head in
a scope of its own, and in predict mode ask where a Transformer is learned: each answer is the
engine's own gradient (backward on the same step), each named mistake the number it says."""

import numpy as np
import pytest

from minigrad.autograd import backward_walk
from minigrad.graph import walk
from attention import EncoderBlock, MultiHeadAttention
from attention.__main__ import main as attention_main
from attention.explore_self import explore_self_attention, self_attention_step
from tests.test_explorer import page_data

MAX_PAGE = 500_000                          # bytes: measured 175-405 KB, 1 to 8 heads


def kinds(q):
    return {m["kind"] for m in q["mistakes"]}


def op_of(data, q):
    return data["ops"][data["steps"][q["step"] - 1]["op"]]


@pytest.mark.parametrize("options", [dict(), dict(causal=True), dict(block=True),
                                     dict(block=True, causal=True, heads=4),
                                     dict(block=True, causal=True, composed=True, heads=8)])
def test_the_pages_build_with_a_scope_per_head_and_stay_small(options):
    page = explore_self_attention(**options)
    heads = options.get("heads", 2)
    names = [tuple(path) for path in page.data["scopes"]]
    for h in range(heads):
        assert any(path[-1] == f"head {h}" for path in names)
    assert len(page.html().encode()) < MAX_PAGE and 30 <= page.steps <= 150
    assert page.questions == []                         # predict mode is off
    wheres = [op for op in page.data["ops"] if op["type"] == "Where"]
    assert len(wheres) == (heads if options.get("causal") else 0)


def test_the_model_and_its_root_are_float64_seeded_and_every_weight_random():
    loss, model, x, residuals = self_attention_step(causal=True, block=True, seed=3)
    again = self_attention_step(causal=True, block=True, seed=3)[0]
    assert isinstance(model, EncoderBlock) and loss.data == again.data
    assert all(p.dtype == np.float64 and np.all(p.data != 0) for p in model.parameters())
    assert [r.name for r in residuals] == ["x", "x1"] and residuals[0] is x
    _, attention, x, residuals = self_attention_step()
    assert isinstance(attention, MultiHeadAttention) and residuals == [x] and x.shape == (4, 8)


def questions_of(**options):
    loss, _, x, residuals = self_attention_step(**options)
    loss.backward()                                     # the engine's own gradients
    page = explore_self_attention(predict=True, **options)
    return page, x, residuals


def test_predict_on_self_attention_asks_the_residual_the_mask_the_softmax_and_the_scale():
    page, x, _ = questions_of(causal=True)
    data = page.data
    residual = [q for q in page.questions if "sublayer_only" in kinds(q)]
    masked = [q for q in page.questions if "through_mask" in kinds(q)]
    softmaxes = [q for q in page.questions if q["span"] and not q.get("mask")]
    scales = [q for q in page.questions if "scale_forgotten" in kinds(q)]
    assert (len(residual), len(masked), len(softmaxes), len(scales)) == (1, 2, 2, 2)
    assert len(page.questions) == 7
    q = residual[0]                                     # x: added, and attended over
    assert data["tensors"][q["tensor"]]["name"] == "x" and q["total"]
    assert abs(x.grad[tuple(q["index"])] - q["answer"]) < 1e-12
    terms = [m["value"] for m in q["mistakes"] if m["kind"] in ("sublayer_only", "missed_sum")]
    assert sum(terms) == pytest.approx(q["answer"], abs=1e-12)     # the sublayer's + dL/dy
    for q in masked:                                    # above the diagonal: key after query
        row, key = q["index"]
        assert data["tensors"][q["tensor"]]["name"] in ("scores #1", "scores #2")  # a head's
        assert q["answer"] == 0.0
        assert key > row and all(abs(m["value"]) > 2 * q["tolerance"] for m in q["mistakes"])
        where = data["ops"][data["steps"][q["span"][1] - 1]["op"]]          # the mask's step
        softmax = next(s for s in softmaxes if s["step"] == q["step"])     # asked with it
        assert where["type"] == "Where" and q["span"][0] == softmax["span"][0]
    for q in scales:                                    # head_dim 4: scores / 2
        forgot = next(m["value"] for m in q["mistakes"] if m["kind"] == "scale_forgotten")
        assert op_of(data, q)["type"] == "Div" and forgot == pytest.approx(2 * q["answer"])


def test_predict_on_a_block_asks_each_layer_norm_with_its_residual():
    page, x, residuals = questions_of(block=True, causal=True)
    norms = [q for q in page.questions if "norm_constants" in kinds(q)]
    assert len(norms) == 2
    for q in norms:                                     # x and x1: each norm's input
        assert op_of(page.data, q)["type"] == "FusedLayerNorm" and q["total"]
        assert {"sublayer_only", "missed_sum", "norm_constants", "sign"} <= kinds(q)
    asked = {page.data["tensors"][q["tensor"]]["name"] for q in norms}
    assert asked == {"x", "x1"}
    q = next(q for q in norms if page.data["tensors"][q["tensor"]]["name"] == "x")
    assert abs(x.grad[tuple(q["index"])] - q["answer"]) < 1e-12
    assert any("through_mask" in kinds(q) for q in page.questions)


def test_a_block_with_composed_layer_norms_asks_their_input_where_the_mean_completes_it():
    page, x, residuals = questions_of(block=True, causal=True, composed=True)
    norms = [q for q in page.questions if "norm_constants" in kinds(q)]
    assert [op_of(page.data, q)["type"] for q in norms] == ["Mean", "Mean"]
    assert {page.data["tensors"][q["tensor"]]["name"] for q in norms} == {"x", "x1"}
    q = next(q for q in norms if page.data["tensors"][q["tensor"]]["name"] == "x")
    assert q["total"] and abs(x.grad[tuple(q["index"])] - q["answer"]) < 1e-12
    assert "FusedLayerNorm" not in {op["type"] for op in page.data["ops"]}
    assert "Sub" not in {op_of(page.data, q)["type"] for q in page.questions}
    fused = explore_self_attention(block=True, causal=True, predict=True)
    assert page.steps == fused.steps + 2 * 8            # nine ops for one, in each norm


@pytest.mark.parametrize("options, words", [
    (dict(heads=0), "heads must be an integer >= 1, got 0"),
    (dict(heads=3), "3 heads do not divide d_model 8"),
    (dict(heads=2.0), "heads must be an integer"),
    (dict(seed=-1), "seed must be an integer >= 0, got -1"),
    (dict(composed=True), "composed=True applies to the layer norms of a block"),
])
def test_bad_settings_are_refused_in_one_line(options, words):
    with pytest.raises((ValueError, TypeError), match=words):
        explore_self_attention(**options)


def test_the_command_writes_self_attention_and_a_block(tmp_path, capsys):
    out = tmp_path / "self.html"
    assert attention_main(["explore", "--self", "--heads", "2", "--causal", "--predict",
                           "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    data = page_data(out.read_text(encoding="utf-8"))
    assert len(data["questions"]) == 7 and "causal" in data["title"]
    assert attention_main(["explore", "--self", "--out", str(out)]) == 1     # no --overwrite
    assert capsys.readouterr().err == f"error: {out} exists; pass --overwrite to replace it\n"
    assert page_data(out.read_text(encoding="utf-8"))["questions"]            # untouched
    assert attention_main(["explore", "--block", "--heads", "4", "--out", str(out),
                           "--overwrite"]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    assert "encoder block" in data["title"] and data["questions"] == []
    assert ["encoder block", "self-attention", "head 3"] in data["scopes"]
    assert attention_main(["explore", "--block", "--composed", "--out", str(out),
                           "--overwrite"]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    assert "from primitive ops" in data["title"]
    assert {"Mean", "Sqrt"} <= {op["type"] for op in data["ops"]}


@pytest.mark.parametrize("args, line", [
    (["--self", "--heads", "0"], "error: --heads must be an integer >= 1, got 0"),
    (["--block", "--heads", "3"], "error: --heads 3 does not divide d_model 8: each head gets "
                                  "d_model / heads numbers (try 1, 2, 4 or 8)"),
    (["--self", "--heads", "-2"], "error: --heads must be an integer >= 1, got -2"),
    (["--causal"], "error: --causal applies to --self or --block"),
    (["--heads", "2"], "error: --heads applies to --self or --block"),
    (["--self", "--random", "2"], "error: --random explores one attention step; it does not "
                                  "go with --self"),
    (["--block", "--hard"], "error: --hard explores one attention step; it does not go with "
                            "--block"),
    (["--self", "--seed", "-1"], "error: --seed must be an integer >= 0, got -1"),
    (["--composed"], "error: --composed applies to --self or --block"),
    (["--self", "--composed"], "error: --composed applies to the layer norms of --block; "
                               "--self has none"),
    (["--self", "--keys", "5"], "error: --keys goes with --random; --self does not use it"),
    (["--block", "--dim", "3"], "error: --dim goes with --random; --block does not use it"),
    (["--self", "--value-dim", "3"], "error: --value-dim goes with --random; --self does not "
                                     "use it"),
    (["--self", "--block"], "error: --self and --block are two pages; choose one (--block "
                            "holds self-attention with its residual)"),
])
def test_bad_options_are_one_line_and_write_nothing(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert attention_main(["explore", *args]) == 1
    assert capsys.readouterr().err == line + "\n"
    assert list(tmp_path.iterdir()) == []


def test_help_describes_every_new_option(capsys):
    with pytest.raises(SystemExit):
        attention_main(["explore", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--self self-attention with its residual", "--block a whole pre-norm encoder",
                  "--heads HEADS with --self or --block", "--causal with --self or --block",
                  "--seed SEED with --random, --self or --block",
                  "--composed with --block: its layer norms from primitive ops"):
        assert words in text


def residual_terms(loss, t):
    """(direct, sublayer): the two terms of t's gradient at its residual y = t + f(t), from the
    engine's walk: the gradient arriving at that sum's output, which the Add passes straight on
    to t, and the rest of t's gradient, what comes back through f."""
    arrived, total = {}, None
    for u, grad_u, _ in backward_walk(loss):
        arrived[id(u)] = grad_u
        if u is t:
            total = grad_u
    made = [u for u in walk([loss]).tensors if u.creator is not None
            and type(u.creator).__name__ == "Add" and any(x is t for x in u.creator.inputs)]
    direct = arrived[id(made[0])]
    return direct, total - direct


@pytest.mark.parametrize("options", [dict(causal=True), dict(block=True),
                                     dict(block=True, causal=True),
                                     dict(block=True, causal=True, composed=True)])
def test_sublayer_only_is_the_sublayers_term_and_the_direct_term_is_a_missed_sum(options):
    """At each residual asked (x; in a block x and x1, whose sublayer starts with a layer norm),
    sublayer_only is what comes back through the sublayer alone, the term that leaves out dL/dy;
    dL/dy alone, the direct term, is the one-term-alone mistake, missed_sum."""
    loss, _, _, residuals = self_attention_step(**options)
    page = explore_self_attention(predict=True, **options)
    asked = [q for q in page.questions if "sublayer_only" in kinds(q)]
    assert len(asked) == len(residuals)
    for q, t in zip(sorted(asked, key=lambda q: -q["step"]), residuals):
        assert page.data["tensors"][q["tensor"]]["name"] == t.name and q["total"]
        direct, sublayer = (term[tuple(q["index"])] for term in residual_terms(loss, t))
        assert abs(direct - sublayer) > 10 * q["tolerance"]       # told apart
        value = {m["kind"]: m["value"] for m in q["mistakes"]}["sublayer_only"]
        assert value == pytest.approx(sublayer, abs=1e-12)
        missed = [m["value"] for m in q["mistakes"] if m["kind"] == "missed_sum"]
        assert any(m == pytest.approx(direct, abs=1e-12) for m in missed)
        assert q["answer"] == pytest.approx(direct + sublayer, abs=1e-12)
    if not options.get("block"):                # y = x + attention(x): the direct term is r
        r = next(t for t in loss.creator.inputs[0].creator.inputs if t.name == "r").data
        assert residual_terms(loss, residuals[0])[0] == pytest.approx(r, abs=1e-12)


@pytest.mark.parametrize("composed", [False, True])
def test_the_blocks_page_answers_are_pytorchs_gradients(composed):
    """Every question about x or a parameter of the block is answered with PyTorch's gradient
    of the same sum(r * block(x)), the block copied across (attention.to_torch)."""
    torch = pytest.importorskip("torch")
    from attention.to_torch import encoder_block_to_torch

    loss, block, x, _ = self_attention_step(block=True, causal=True, composed=composed)
    r = loss.creator.inputs[0].creator.inputs[1].data
    theirs = encoder_block_to_torch(block).eval()
    x_torch = torch.tensor(x.data, requires_grad=True)
    mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)     # True: may NOT
    y = theirs(x_torch[None], src_mask=mask)[0]
    (y * torch.from_numpy(r)).sum().backward()
    assert np.allclose(y.detach().numpy(), loss.creator.inputs[0].creator.inputs[0].data,
                       atol=1e-12)
    page = explore_self_attention(block=True, causal=True, composed=composed, predict=True)
    q = next(q for q in page.questions if page.data["tensors"][q["tensor"]]["name"] == "x")
    assert abs(x_torch.grad.numpy()[tuple(q["index"])] - q["answer"]) < 1e-12
