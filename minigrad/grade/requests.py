"""What the grader sends to the graded code's process for a function exercise (grader.py): the
cases' text (labels, argument names, settings) and their arrays (inputs, array settings and the
upstream gradients), never the expected values."""

import numpy as np


def request(cases, outputs, names):
    """The request's text part: what the graded code's process needs to call the function."""
    specs = []
    for case in cases:
        arrays = {k for k, v in case.settings.items() if isinstance(v, np.ndarray)}
        specs.append({"label": case.label, "arrays": list(case.arrays),
                      "settings": {k: v for k, v in case.settings.items() if k not in arrays},
                      "array_settings": sorted(arrays), "outputs": len(outputs)})
    return {"cases": specs, "outputs": list(outputs), "intermediates": names}


def request_arrays(cases, expected):
    """The request's arrays: each case's inputs, array settings and upstream gradients (never
    the expected outputs, gradients or intermediates: the graded code's process has no need of
    them, and may not open the file that holds them)."""
    arrays = {}
    for number, (case, wanted) in enumerate(zip(cases, expected), 1):
        arrays.update({f"{number}/in/{k}": np.asarray(v) for k, v in case.arrays.items()})
        arrays.update({f"{number}/setting/{k}": v for k, v in case.settings.items()
                       if isinstance(v, np.ndarray)})
        arrays.update({f"{number}/upstream/{j}": r for j, r in enumerate(wanted.upstream)})
    return arrays
