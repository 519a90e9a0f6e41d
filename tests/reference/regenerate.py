"""Write the graders' stored expected values again from the reference solutions beside this
file, for the maintainer (after a change to an exercise's cases or to a reference):

    python tests/reference/regenerate.py

It writes minigrad/grade/expected.npz and attention/grade/expected.npz: for every exercise
and case, the reference's outputs, the upstream gradient, the gradients of the inputs for it,
and the named intermediates the diagnosis compares (minigrad/grade/expected.py).
tests/test_coursework_expected.py checks that the stored values are what this gives now.
"""

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import attention_reference  # noqa: E402
import minigrad_reference  # noqa: E402

from minigrad.grade import exercises as engine  # noqa: E402
from minigrad.grade.expected import as_arrays, computed  # noqa: E402
from attention.grade import exercises as attention  # noqa: E402

# (the exercises' module, {exercise: the reference function})
REFERENCES = (
    (engine, {"gru_cell": minigrad_reference.gru_cell,
              "layer_norm": minigrad_reference.layer_norm,
              "logsumexp": minigrad_reference.logsumexp,
              "layer_norm_op": minigrad_reference.layer_norm_op}),
    (attention, {"general_attention": attention_reference.general_attention,
                 "multi_head": attention_reference.multi_head_attention,
                 "encoder_block": attention_reference.encoder_block}),
)


def expected_arrays(module, references):
    """{member: array}: what module.EXPECTED holds when the references' values are stored."""
    arrays = {}
    for name, reference in references.items():
        exercise = module.EXERCISES[name]
        cases = exercise.cases()
        right = computed(reference)(cases, exercise.outputs, exercise.intermediates)
        arrays.update(as_arrays(name, cases, right))
    return arrays


def main():
    for module, references in REFERENCES:
        np.savez_compressed(module.EXPECTED, **expected_arrays(module, references))
        print(f"wrote {module.EXPECTED.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
