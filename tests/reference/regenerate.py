"""Write the graders' stored expected values again from the reference solutions beside this
file, for the maintainer (after a change to an exercise's cases or to a reference):

    python tests/reference/regenerate.py                    # every exercise
    python tests/reference/regenerate.py causal_attention   # these only; the others' stored
                                                            # values are kept as they are

It writes minigrad/grade/expected.npz and attention/grade/expected.npz: for every exercise
and case, the reference's outputs, the upstream gradient, the gradients of the inputs for it,
and the named intermediates the diagnosis compares (minigrad/grade/expected.py). Naming the
exercises to write (a new one, one whose cases changed) leaves every other exercise's values
bit for bit as they were: computed again, they could differ at round-off level (1e-16) with
the machine's BLAS kernel, and a change to a stored value should be a change on purpose.
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
                 "encoder_block": attention_reference.encoder_block,
                 "positional_encoding": attention_reference.add_positions,
                 "causal_attention": attention_reference.causal_attention}),
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


def main(names=()):
    """Write every exercise's values, or, given `names`, those exercises' only."""
    known = [name for _, references in REFERENCES for name in references]
    unknown = [name for name in names if name not in known]
    if unknown:
        sys.exit(f"regenerate.py: no exercise {', '.join(unknown)}; the exercises are: "
                 f"{', '.join(known)}")
    for module, references in REFERENCES:
        chosen = {k: v for k, v in references.items() if not names or k in names}
        if not chosen:
            continue
        arrays = {}
        if names:
            with np.load(module.EXPECTED, allow_pickle=False) as found:
                arrays = {k: found[k] for k in found.files if k.split("/")[0] not in chosen}
        arrays.update(expected_arrays(module, chosen))
        np.savez_compressed(module.EXPECTED, **arrays)
        shown = module.EXPECTED
        shown = shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else shown
        print(f"wrote {shown} ({', '.join(chosen)})")


if __name__ == "__main__":
    main(sys.argv[1:])
