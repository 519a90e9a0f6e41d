"""The engine-level exercises: what the student's file must define and the inputs it is checked
on (fixed seeds, small shapes, so grading takes a fraction of a second). The right answers are
stored beside this file (expected.npz, expected.py); the reference solutions that made them
are not part of the package (tests/reference/minigrad_reference.py in the project's source)."""

import os
from pathlib import Path

import numpy as np

from minigrad.autograd import Function
from minigrad.grade import layer_norm_mistakes
from minigrad.grade.expected import stored
from minigrad.grade.grader import Case, SolutionFailed, function_exercise
from minigrad.messages import Phrase, message
from minigrad.nn.fused_layer_norm import FusedLayerNorm, fused_layer_norm
from minigrad.nn.layer_norm import LayerNorm, layer_norm
from minigrad.ops import softmax as softmaxes

EXPECTED = Path(__file__).with_name("expected.npz")

# The project's own versions of a piece, which a solution may not run (answers.py). The project
# has no GRU cell of its own (a GRU is the coursework's); it has layer normalisation, composed
# and fused; and softmax, log-softmax and cross-entropy each compute a log-sum-exp (log-softmax
# is x minus it) or its derivative (softmax). So does attention's softmax, built from primitive
# ops: it is named by 'module:name', which the graded code's process looks up (minigrad does not
# import attention, a floor above it).
LAYER_NORMS = (layer_norm, LayerNorm, fused_layer_norm, FusedLayerNorm,
               "attention.grade.encoder_block:_layer_norm")     # the block grader's own
LOG_SUM_EXPS = (softmaxes.softmax, softmaxes.Softmax, softmaxes.log_softmax, softmaxes.LogSoftmax,
                softmaxes.cross_entropy, softmaxes.CrossEntropy, "attention.softmax:softmax")
# torch's GRU, in C: torch.gru_cell (torch._VF.gru_cell, which torch.nn.GRUCell runs) and
# torch.gru (torch.nn.GRU's). Named, not imported: torch loads only if the solution loads it.
TORCH_GRUS = ("builtin torch:_VariableFunctionsClass.gru_cell",
              "builtin torch:_VariableFunctionsClass.gru")


def gru_cases():
    """I = 4 inputs, H = 5 hidden units: weight_ih (15, 4), weight_hh (15, 5), biases (15,)."""
    cases = []
    for label, batch, scale, zero_state in (("cases.one_example", 1, 1.0, False),
                                            ("cases.batch_of_3", 3, 1.0, False),
                                            ("cases.first_step", 2, 1.0, True),
                                            ("cases.large_weights", 2, 4.0, False)):
        rng = np.random.default_rng(len(cases) + 10)
        cases.append(Case(message(label), {
            "x": rng.standard_normal((batch, 4)),
            "h": np.zeros((batch, 5)) if zero_state else rng.standard_normal((batch, 5)),
            "weight_ih": scale * rng.uniform(-0.6, 0.6, (15, 4)),
            "weight_hh": scale * rng.uniform(-0.6, 0.6, (15, 5)),
            "bias_ih": rng.uniform(-0.6, 0.6, 15),
            "bias_hh": rng.uniform(-0.6, 0.6, 15),
        }))
    return cases


def layer_norm_cases():
    cases = []
    for label, shape, spread, settings in (("cases.rows_of_6", (4, 6), 1.0, {}),
                                           ("cases.input_3d", (2, 3, 5), 1.0, {}),
                                           ("cases.barely_vary", (3, 6), 1e-3, {}),
                                           ("cases.eps", (3, 4), 1.0, {"eps": 0.1})):
        rng = np.random.default_rng(len(cases) + 20)
        size = shape[-1]
        x = spread * rng.standard_normal(shape) + rng.standard_normal(shape[:-1] + (1,))
        cases.append(Case(message(label), {"x": x,
                                           "weight": 1 + 0.5 * rng.standard_normal(size),
                                           "bias": rng.standard_normal(size)}, settings))
    return cases


def logsumexp_cases():
    cases = []
    for label, shape, scale, settings in (("cases.rows", (3, 5), 1.0, {}),
                                          ("cases.columns", (4, 3), 1.0, {"axis": 0}),
                                          ("cases.keepdims", (2, 3, 4), 1.0,
                                           {"axis": 1, "keepdims": True}),
                                          ("cases.one_vector", (6,), 1.0, {}),
                                          ("cases.huge_values", (2, 4), 1000.0, {})):
        rng = np.random.default_rng(len(cases) + 30)
        cases.append(Case(message(label), {"x": scale * rng.standard_normal(shape)}, settings))
    return cases


def own_op(exercise):
    """The check `extra` that the output of `exercise` is made by an op of the student's own:
    a Function subclass defined in the student's file. Judged here from what the graded code's
    process gave back as data (the op's classes and its file, run_cases.made_by): a fact about
    the code, not a number, so code in that process set on it can forge it; the outputs and
    gradients are checked apart."""

    def is_one_op(facts, where, path):
        function = f"{Function.__module__}.{Function.__qualname__}"
        own = (function in facts.get("made_by_classes", [])
               and facts.get("made_by_file") == os.path.realpath(path))
        if not own:
            made_by = facts.get("made_by") or message("grade.no_op")
            elsewhere = facts.get("made_by_file")
            if function in facts.get("made_by_classes", []) and elsewhere:
                made_by = message("grade.own_op_elsewhere", made_by=made_by, file=elsewhere)
            raise SolutionFailed(message("grade.own_op", name=exercise, made_by=made_by,
                                         where=where))

    return is_one_op


logsumexp_is_one_op = own_op("logsumexp")


EXERCISES = {e.name: e for e in [
    function_exercise(
        "gru_cell", "a GRU cell from primitive ops", "gru_cell",
        "gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh) -> h_new",
        stored(EXPECTED, "gru_cell"), gru_cases, outputs=("h_new",),
        intermediates=(("r", Phrase("gru.reset_gate")), ("z", Phrase("gru.update_gate")),
                       ("n", Phrase("gru.candidate"))),
        parts={"weight_ih": ("W_ir", "W_iz", "W_in"), "weight_hh": ("W_hr", "W_hz", "W_hn"),
               "bias_ih": ("b_ir", "b_iz", "b_in"), "bias_hh": ("b_hr", "b_hz", "b_hn")},
        answers=TORCH_GRUS),
    function_exercise(
        "layer_norm", "layer normalisation over the last axis", "layer_norm",
        "layer_norm(x, weight, bias, eps=1e-5) -> y",
        stored(EXPECTED, "layer_norm"), layer_norm_cases, outputs=("y",), answers=LAYER_NORMS),
    function_exercise(
        "logsumexp", "a new op with a hand-derived backward", "logsumexp",
        "logsumexp(x, axis=-1, keepdims=False) -> y, made by your own Function",
        stored(EXPECTED, "logsumexp"), logsumexp_cases, outputs=("y",),
        extra=logsumexp_is_one_op, answers=LOG_SUM_EXPS, by_hand=True),
    function_exercise(
        "layer_norm_op", "layer normalisation as one op, its backward derived by hand",
        "layer_norm_op", "layer_norm_op(x, weight, bias, eps=1e-5) -> y, made by your own Function",
        stored(EXPECTED, "layer_norm_op"), layer_norm_cases, outputs=("y",),
        extra=own_op("layer_norm_op"), answers=(*LAYER_NORMS, layer_norm_mistakes), by_hand=True,
        mistakes=layer_norm_mistakes.diagnosis),
]}
