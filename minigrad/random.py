"""One random generator for the whole library (initialisation, dropout, shuffling), so that
`minigrad.manual_seed(0)` makes a run repeatable."""

import numpy as np

_generator = np.random.default_rng()


def manual_seed(seed):
    """Reset the generator: the same seed gives the same initial weights and dropout masks."""
    global _generator
    _generator = np.random.default_rng(seed)
    return _generator


def generator():
    """The current generator (an `np.random.Generator`)."""
    return _generator
