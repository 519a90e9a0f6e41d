"""The attention exercises: what the student's file must define and the inputs it is checked on.
The machinery is minigrad.grade's; the right answers are stored beside this file (expected.npz),
made by the reference solutions, which are not part of the package
(tests/reference/attention_reference.py in the project's source). A solution may not run the
project's module that the exercise builds again (GeneralAttention, MultiHeadAttention,
EncoderBlock; the encoder block's attention is the student's own, from the multi-head
exercise, so MultiHeadAttention is refused there too)."""

from pathlib import Path

import numpy as np

from minigrad.grade.expected import stored
from minigrad.grade.grader import Case, function_exercise
from attention.blocks import EncoderBlock
from attention.grade.encoder_block import INTERMEDIATES, WEIGHTS, encoder_block_cases, explain
from attention.modules import GeneralAttention, MultiHeadAttention

EXPECTED = Path(__file__).with_name("expected.npz")


def general_attention_cases():
    cases = []
    for label, (batch, m, n, dq, dk, dv), masked in (
            ("one query per example, dq=3, dk=4", (2, 1, 5, 3, 4, 2), False),
            ("three queries per example", (2, 3, 4, 3, 3, 5), False),
            ("a padding mask: the last keys of example 0 may not be attended",
             (2, 2, 5, 4, 3, 3), True)):
        rng = np.random.default_rng(len(cases) + 40)
        settings = {}
        if masked:
            mask = np.ones((batch, 1, n), dtype=bool)                       # (B, 1, n)
            mask[0, 0, -2:] = False
            settings["mask"] = mask
        cases.append(Case(label, {"query": rng.standard_normal((batch, m, dq)),
                                  "keys": rng.standard_normal((batch, n, dk)),
                                  "values": rng.standard_normal((batch, n, dv)),
                                  "weight": 0.7 * rng.standard_normal((dq, dk))}, settings))
    return cases


def multi_head_cases():
    """Self-attention passes the same numbers as query, key and value (three separate tensors,
    so each gets its own gradient)."""
    cases = []
    for label, (batch, tq, tk, embed, heads), kind in (
            ("self-attention, 2 heads of 2", (2, 3, 3, 4, 2), "self"),
            ("cross-attention, 3 heads of 2", (2, 2, 4, 6, 3), "cross"),
            ("one head", (1, 3, 2, 4, 1), "cross"),
            ("a causal mask, 2 heads", (2, 4, 4, 4, 2), "causal")):
        rng = np.random.default_rng(len(cases) + 50)
        settings = {"num_heads": heads}
        if kind == "causal":
            settings["mask"] = np.tril(np.ones((tq, tk), dtype=bool))       # (Tq, Tk)
        query = rng.standard_normal((batch, tq, embed))                     # (B, Tq, E)
        key = query.copy() if kind == "self" else rng.standard_normal((batch, tk, embed))
        value = query.copy() if kind == "self" else rng.standard_normal((batch, tk, embed))
        cases.append(Case(label, {
            "query": query, "key": key, "value": value,
            "in_proj_weight": 0.6 * rng.standard_normal((3 * embed, embed)),
            "in_proj_bias": 0.1 * rng.standard_normal(3 * embed),
            "out_proj_weight": 0.6 * rng.standard_normal((embed, embed)),
            "out_proj_bias": 0.1 * rng.standard_normal(embed)}, settings))
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
]}
