"""Benchmark of minigrad's LayerNorm, composed and fused, side by side with PyTorch's.

    python bench/layer_norm.py                 # or: make bench
    python bench/layer_norm.py --shape 64 50 128 --dtype float64

Forward + backward of one layer normalisation over the last axis (default shape (32, 20, 64),
as in a small Transformer: batch, time, d_model), with a fixed random upstream gradient and the
same weights everywhere; best of N runs, one thread:

  minigrad composed     nn.LayerNorm(fused=False): nine primitive ops, each with its backward
  minigrad fused        nn.LayerNorm(fused=True): one op (FusedLayerNorm), backward by hand
  torch.nn.LayerNorm    PyTorch's layer (its fused C++ kernel), through its autograd

Each figure comes from a fresh process that runs one contender alone (the minigrad ones without
importing PyTorch), in two columns as in bench/lstm.py: glibc's malloc as it comes, and malloc
told to keep freed memory (mallopt). Each array here is 160 kB in float32, above glibc's first
threshold for handing memory back to the system, so as it comes every run may fault its arrays
in again page by page; the page-fault counts show it. The last lines give the ratio
fused / PyTorch in each column (below 1: minigrad's fused op is faster).
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS"):
    os.environ[_name] = "1"          # before NumPy is imported, or the BLAS ignores it

import argparse
import importlib.util
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from lstm import keep_freed_memory  # bench/lstm.py's: malloc keeps freed memory

from minigrad import Tensor, nn


@dataclass
class Config:
    shape: tuple = field(default=(32, 20, 64))
    repeats: int = 200                # each figure is the best of this many runs
    dtype: str = "float32"


def best_time(fn, repeats):
    """The fastest of `repeats` runs of fn(), in seconds, after a few warm-up runs, and the
    page faults per run (pages the system had to hand over afresh)."""
    for _ in range(5):
        fn()
    times, faults = [], resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return min(times), faults // repeats


def minigrad_run(norm, x, upstream):
    """Forward + backward; returns dL/dx and dL/dweight."""
    norm.zero_grad()
    x = Tensor(x, requires_grad=True)
    norm(x).backward(grad=upstream)
    return x.grad, norm.weight.grad


def torch_run(norm, x, upstream):
    norm.zero_grad()
    x = x.detach().requires_grad_()
    norm(x).backward(upstream)
    return x.grad, norm.weight.grad


NAMES = ["minigrad composed", "minigrad fused", "torch.nn.LayerNorm"]


def contenders(config, names):
    """{name: fn()} for the named versions, all from the same input, weights and upstream
    gradient. PyTorch is imported only if one of them needs it."""
    rng = np.random.default_rng(0)
    D = config.shape[-1]
    x = rng.standard_normal(config.shape).astype(config.dtype)
    upstream = rng.standard_normal(config.shape).astype(config.dtype)
    composed = nn.LayerNorm(D).to(config.dtype)
    composed.weight.data = (1 + 0.1 * rng.standard_normal(D)).astype(config.dtype)
    composed.bias.data = (0.1 * rng.standard_normal(D)).astype(config.dtype)
    fused = nn.LayerNorm(D, fused=True).to(config.dtype)
    fused.load_state_dict(composed.state_dict())
    runs = {"minigrad composed": lambda: minigrad_run(composed, x, upstream),
            "minigrad fused": lambda: minigrad_run(fused, x, upstream)}
    if "torch.nn.LayerNorm" in names:
        import torch
        torch.set_num_threads(1)
        theirs = torch.nn.LayerNorm(D).to(getattr(torch, config.dtype))
        theirs.load_state_dict({k: torch.from_numpy(v) for k, v in composed.state_dict().items()})
        tx, tup = torch.from_numpy(x), torch.from_numpy(upstream)
        runs["torch.nn.LayerNorm"] = lambda: [t.numpy() for t in torch_run(theirs, tx, tup)]
    return {name: runs[name] for name in names}


def check_agreement(runs, dtype):
    """Every contender computes the same gradients (else the race is unfair)."""
    tolerance = 1e-4 if dtype == "float32" else 1e-10
    reference = runs["minigrad composed"]()
    for name, fn in runs.items():
        for mine, theirs in zip(fn(), reference):
            np.testing.assert_allclose(mine, theirs, rtol=tolerance, atol=tolerance,
                                       err_msg=name)


def time_in_fresh_process(name, config, keep_memory):
    """Time one contender in a new Python process, so that the allocator's state depends on it
    alone. Returns (seconds, page faults per run)."""
    command = [sys.executable, __file__, "--only", name, "--repeats", str(config.repeats),
               "--dtype", config.dtype, "--shape", *map(str, config.shape)]
    result = subprocess.run(command + (["--keep-freed-memory"] if keep_memory else []),
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"bench/layer_norm.py: timing {name} failed:\n{result.stderr}")
    seconds, faults = result.stdout.split()
    return float(seconds), int(faults)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs="+", default=list(Config.shape))
    parser.add_argument("--repeats", type=int, default=Config.repeats)
    parser.add_argument("--dtype", choices=["float32", "float64"], default=Config.dtype)
    parser.add_argument("--only", choices=NAMES, help=argparse.SUPPRESS)
    parser.add_argument("--keep-freed-memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    config = Config(tuple(args.shape), args.repeats, args.dtype)

    if args.only:                                   # one contender, in this fresh process
        if args.keep_freed_memory and not keep_freed_memory():
            raise SystemExit("bench/layer_norm.py: mallopt is not available (not glibc)")
        seconds, faults = best_time(contenders(config, [args.only])[args.only], config.repeats)
        print(seconds, faults)
        return

    has_torch = importlib.util.find_spec("torch") is not None
    names = NAMES if has_torch else NAMES[:2]
    print(f"LayerNorm forward + backward, shape {config.shape}, {config.dtype}, one thread, "
          f"best of {config.repeats}{'' if has_torch else ' (PyTorch is not installed)'}")
    check_agreement(contenders(config, names), config.dtype)
    modes = {"default malloc": False}
    if keep_freed_memory():
        modes["malloc keeps memory"] = True
    columns = {title: {name: time_in_fresh_process(name, config, keep) for name in names}
               for title, keep in modes.items()}
    print(f"\n   {'':20s}" + "".join(f"{title:>26s}" for title in columns))
    print(f"   {'':20s}" + f"{'microseconds':>14s}{'page faults':>12s}" * len(columns))
    for name in names:
        print(f"   {name:20s}" + "".join(f"{times[name][0] * 1e6:14.1f}{times[name][1]:12d}"
                                          for times in columns.values()))
    if has_torch:
        print(f"\n   {'minigrad fused / torch.nn.LayerNorm':40s}" + "".join(
            f"{times['minigrad fused'][0] / times['torch.nn.LayerNorm'][0]:12.2f}x"
            for times in columns.values()))


if __name__ == "__main__":
    main()
