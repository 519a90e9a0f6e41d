"""The attention exercises: what the student's file must define and the inputs it is checked on.
The machinery is minigrad.grade's; the right answers are stored beside this file (expected.npz),
made by the reference solutions, which are not part of the package
(tests/reference/attention_reference.py in the project's source). A solution may not run the
project's module that the exercise builds again (GeneralAttention, MultiHeadAttention,
EncoderBlock, the sinusoidal positions, the causal attention; the encoder block's
attention is the student's own, from the multi-head exercise, so MultiHeadAttention is
refused there too), nor the known mistakes the Transformer exercises' diagnosis compares
with (mistakes.py)."""

from pathlib import Path

import numpy as np

from minigrad.grade.expected import stored
from minigrad.grade.grader import Case, function_exercise
from attention.blocks import DecoderBlock, EncoderBlock
from attention.cache import KeyValueCache
from attention.functional import _masked, attend, dot_product_attention, self_attention
from attention.grade import mistakes
from attention.grade.encoder_block import INTERMEDIATES, WEIGHTS, encoder_block_cases, explain
from attention.masks import causal_mask
from attention.messages import message
from attention.modules import (
    DotProductAttention,
    GeneralAttention,
    MultiHeadAttention,
    ScaledDotProductAttention,
)
from attention.positions import SinusoidalPositions, sinusoids

EXPECTED = Path(__file__).with_name("expected.npz")


def general_attention_cases():
    cases = []
    for label, (batch, m, n, dq, dk, dv), masked in (
            ("case.one_query", (2, 1, 5, 3, 4, 2), False),
            ("case.three_queries", (2, 3, 4, 3, 3, 5), False),
            ("case.padded_keys",
             (2, 2, 5, 4, 3, 3), True)):
        rng = np.random.default_rng(len(cases) + 40)
        settings = {}
        if masked:
            mask = np.ones((batch, 1, n), dtype=bool)                       # (B, 1, n)
            mask[0, 0, -2:] = False
            settings["mask"] = mask
        cases.append(Case(message(label), {"query": rng.standard_normal((batch, m, dq)),
                                  "keys": rng.standard_normal((batch, n, dk)),
                                  "values": rng.standard_normal((batch, n, dv)),
                                  "weight": 0.7 * rng.standard_normal((dq, dk))}, settings))
    return cases


def multi_head_cases():
    """Self-attention passes the same numbers as query, key and value (three separate tensors,
    so each gets its own gradient)."""
    cases = []
    for label, (batch, tq, tk, embed, heads), kind in (
            ("case.self_heads", (2, 3, 3, 4, 2), "self"),
            ("case.cross_heads", (2, 2, 4, 6, 3), "cross"),
            ("case.one_head", (1, 3, 2, 4, 1), "cross"),
            ("case.causal_heads", (2, 4, 4, 4, 2), "causal")):
        rng = np.random.default_rng(len(cases) + 50)
        settings = {"num_heads": heads}
        if kind == "causal":
            settings["mask"] = np.tril(np.ones((tq, tk), dtype=bool))       # (Tq, Tk)
        query = rng.standard_normal((batch, tq, embed))                     # (B, Tq, E)
        key = query.copy() if kind == "self" else rng.standard_normal((batch, tk, embed))
        value = query.copy() if kind == "self" else rng.standard_normal((batch, tk, embed))
        cases.append(Case(message(label), {
            "query": query, "key": key, "value": value,
            "in_proj_weight": 0.6 * rng.standard_normal((3 * embed, embed)),
            "in_proj_bias": 0.1 * rng.standard_normal(3 * embed),
            "out_proj_weight": 0.6 * rng.standard_normal((embed, embed)),
            "out_proj_bias": 0.1 * rng.standard_normal(embed)}, settings))
    return cases


def positions_cases():
    """x (B, T, d_model): the encoding added to random embeddings."""
    cases = []
    for label, shape in (("case.positions", (2, 6, 8)),
                         ("case.odd_d_model", (1, 5, 7)),
                         ("case.one_position", (2, 1, 6)),
                         ("case.long_sequence", (1, 200, 8))):
        rng = np.random.default_rng(len(cases) + 60)
        cases.append(Case(message(label), {"x": rng.standard_normal(shape)}))
    return cases


def causal_cases():
    """Self-attention: query, keys and values of one sequence (B, T, d), three tensors. The
    last case's scores reach about 2e4 (its weights are all but one-hot): there -1e4 in place of
    -inf leaks, both written into the scores (a query whose earlier scores are all below -1e4
    puts its weight on a later key) and added to them (a later key scoring 1e4 above every
    earlier one keeps its weight). Its seed was picked so that both happen."""
    cases = []
    for label, (batch, length, d, dv), size, seed in (
            ("case.one_sequence", (1, 4, 3, 3), 1.0, 70),
            ("case.batch_of_2", (2, 5, 4, 2), 1.0, 71),
            ("case.attends_itself", (2, 1, 3, 3), 1.0, 72),
            ("case.large_scores", (1, 6, 4, 3), 80.0, 117)):
        rng = np.random.default_rng(seed)
        cases.append(Case(message(label), {
            "query": size * rng.standard_normal((batch, length, d)),
            "keys": size * rng.standard_normal((batch, length, d)),
            "values": rng.standard_normal((batch, length, dv))}))
    return cases


EXERCISES = {e.name: e for e in [
    function_exercise(
        "general_attention", "Luong's general attention, score(q, k) = q^T W k",
        "general_attention",
        "general_attention(query, keys, values, weight, mask=None) -> (context, weights)",
        stored(EXPECTED, "general_attention"), general_attention_cases,
        outputs=("context", "weights"), package="attention.grade", answers=(GeneralAttention,)),
    function_exercise(
        "multi_head", "multi-head attention from single-head attentions",
        "multi_head_attention",
        "multi_head_attention(query, key, value, in_proj_weight, in_proj_bias, "
        "out_proj_weight, out_proj_bias, num_heads, mask=None) -> (attn_output, attn_weights)",
        stored(EXPECTED, "multi_head"), multi_head_cases,
        outputs=("attn_output", "attn_weights"),
        parts={"in_proj_weight": ("W_q", "W_k", "W_v"), "in_proj_bias": ("b_q", "b_k", "b_v")},
        package="attention.grade", answers=(MultiHeadAttention,)),
    function_exercise(
        "encoder_block", "a Transformer encoder block from your own multi-head attention",
        "encoder_block",
        f"encoder_block(x, {', '.join(WEIGHTS)}, num_heads, mask=None, norm_first=True) -> y",
        stored(EXPECTED, "encoder_block"), encoder_block_cases, outputs=("y",),
        intermediates=INTERMEDIATES, explain=explain,
        parts={"in_proj_weight": ("W_q", "W_k", "W_v"), "in_proj_bias": ("b_q", "b_k", "b_v")},
        package="attention.grade", answers=(EncoderBlock, MultiHeadAttention)),
    function_exercise(
        "positional_encoding", "the sinusoidal positional encoding, added to embeddings",
        "add_positions", "add_positions(x) -> x + PE",
        stored(EXPECTED, "positional_encoding"), positions_cases, outputs=("y",),
        package="attention.grade", answers=(SinusoidalPositions, sinusoids, mistakes),
        output_mistakes=mistakes.positions_mistake),
    function_exercise(
        "causal_attention", "scaled dot-product self-attention with a causal mask",
        "causal_attention", "causal_attention(query, keys, values) -> (context, weights)",
        stored(EXPECTED, "causal_attention"), causal_cases, outputs=("context", "weights"),
        package="attention.grade", output_mistakes=mistakes.causal_mistake,
        answers=(dot_product_attention, attend, self_attention, _masked, causal_mask,
                 DotProductAttention, ScaledDotProductAttention, MultiHeadAttention, DecoderBlock,
                 KeyValueCache, mistakes)),
]}
