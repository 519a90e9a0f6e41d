"""Benchmark of GELU forward + backward, minigrad's side by side with PyTorch's.

    python bench/gelu.py                  # or: make bench
    python bench/gelu.py --shape 64 50 512 --dtype float64

The exact GELU (approximate="none", with erf from minigrad/ops/erf.py) and the tanh form, on
the feed-forward activation of a small Transformer (default shape (32, 20, 256): batch, time,
4 * d_model), with a fixed random upstream gradient; one thread. The contenders take turns,
round after round, so that a machine busy with other work slows them alike; each figure is
the best run. The ratio minigrad / PyTorch is given per form (below 1: minigrad is faster).
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS"):
    os.environ[_name] = "1"          # before NumPy is imported, or the BLAS ignores it

import argparse
import importlib.util
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import minigrad.functional as F
from minigrad import Tensor


@dataclass
class Config:
    shape: tuple = field(default=(32, 20, 256))
    rounds: int = 20                  # turns each contender takes
    repeats: int = 5                  # runs per turn
    dtype: str = "float32"


def contenders(config):
    """{name: fn()} for each form in minigrad and, where installed, PyTorch."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(config.shape).astype(config.dtype)
    upstream = rng.standard_normal(config.shape).astype(config.dtype)

    def minigrad_run(approximate):
        t = Tensor(x, requires_grad=True)
        F.gelu(t, approximate).backward(grad=upstream)
        return t.grad

    runs = {f"minigrad {a}": (lambda a=a: minigrad_run(a)) for a in ("none", "tanh")}
    if importlib.util.find_spec("torch") is not None:
        import torch
        torch.set_num_threads(1)
        tx, tup = torch.from_numpy(x), torch.from_numpy(upstream)

        def torch_run(approximate):
            t = tx.detach().requires_grad_()
            torch.nn.functional.gelu(t, approximate=approximate).backward(tup)
            return t.grad.numpy()

        runs.update({f"torch {a}": (lambda a=a: torch_run(a)) for a in ("none", "tanh")})
    return runs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs="+", default=list(Config.shape))
    parser.add_argument("--rounds", type=int, default=Config.rounds)
    parser.add_argument("--dtype", choices=["float32", "float64"], default=Config.dtype)
    args = parser.parse_args(argv)
    config = Config(shape=tuple(args.shape), rounds=args.rounds, dtype=args.dtype)
    runs = contenders(config)
    tolerance = 1e-5 if config.dtype == "float32" else 1e-12
    for form in ("none", "tanh"):                   # the race is fair: the same gradients
        if f"torch {form}" in runs:
            np.testing.assert_allclose(runs[f"minigrad {form}"](), runs[f"torch {form}"](),
                                       rtol=tolerance, atol=tolerance, err_msg=form)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(config.rounds):
        for name, fn in runs.items():
            for _ in range(config.repeats):
                start = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - start)
    print(f"GELU forward + backward, shape {config.shape}, {config.dtype}, one thread, "
          f"best of {config.rounds * config.repeats}"
          f"{'' if 'torch none' in runs else ' (PyTorch is not installed)'}\n")
    for name, seconds in best.items():
        print(f"   {name:16s}{seconds * 1e6:12.1f} microseconds")
    for form in ("none", "tanh"):
        if f"torch {form}" in runs:
            ratio = best[f"minigrad {form}"] / best[f"torch {form}"]
            print(f"   minigrad / torch, approximate={form!r}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
