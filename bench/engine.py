"""Benchmark of the engine's overhead, side by side with raw NumPy and (where installed) PyTorch.

    python bench/engine.py                # or: make bench
    python bench/engine.py --repeats 5

Two workloads, each timed forward + backward:

1. A chain of small ops (add, mul, tanh in turn) on shape (1,): the arrays are tiny, so the time
   is the framework's own bookkeeping per op. Raw NumPy runs the same chain forward only. The
   frameworks take turns, round after round (--rounds, 15), so that a machine busy with other
   work slows them alike; the table gives the median and the best round, and the ratio of the
   medians to PyTorch's: above 1.00, minigrad's engine costs more per op than PyTorch's.
2. An LSTM unrolled over 29 steps (batch 128, input 16, hidden 256) from primitive ops: matmul,
   add, slicing the gates, sigmoid, tanh, mul. Here the arithmetic dominates.

Everything runs on one BLAS thread, so the figures compare the frameworks, not the thread pools.

The LSTM table also counts page faults per run. minigrad keeps every intermediate tensor of the
graph (a student can look at any of them); PyTorch keeps only what its backward needs. On Linux,
glibc hands freed memory back to the system between runs, so each run first touches fresh pages
again, and more of them for minigrad. The LSTM is then measured once more in a child process
whose allocator keeps freed memory (GLIBC_TUNABLES), which takes page faults out of the
comparison for all three alike.

Last, what checking the saved arrays costs, both workloads in minigrad:
- default: the version check that is always on (`minigrad/versions.py`): each recorded op notes
  the version clock, and backward compares it with the clock before the op's backward. These
  are the figures of tables 1 and 2 (compare them with an older version of minigrad for the
  cost of the check itself).
- clock moved: the same, with one unrelated tensor changed in place between forward and
  backward, so the clock has moved for every op, and each compares the changed array with the
  arrays it saved (the check's slow path).
- guard: inside `minigrad.debug.guard_saved()`, which fingerprints every array an op saves for
  backward and checks it when backward reaches the op. Off, the engine pays one `if` per op
  for it (and for the other debugger aids).
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS"):
    os.environ[_name] = "1"          # before NumPy is imported, or the BLAS ignores it

import argparse
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from minigrad import Tensor
from minigrad.debug import guard_saved

try:
    import torch
    torch.set_num_threads(1)
except ImportError:                   # the comparison is skipped without PyTorch
    torch = None


@dataclass
class Config:
    chain_length: int = 2000
    steps: int = 29
    batch: int = 128
    input_size: int = 16
    hidden: int = 256
    repeats: int = 7                  # each figure is the best of this many runs
    rounds: int = 15                  # of the chain, each framework once per round
    dtype: str = "float32"            # of the LSTM; the chain runs in float64


KEEP_FREED_MEMORY = "glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432"


def best_time(fn, repeats):
    """The fastest of `repeats` runs of fn(), in seconds (after one warm-up run)."""
    return measure(fn, repeats)[0]


def measure(fn, repeats):
    """(fastest time in seconds, page faults per run) over `repeats` runs of fn()."""
    fn()
    times = []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return min(times), faults / repeats


def side_by_side(fns, rounds):
    """{name: [seconds of each round]}: every fn once per round, in turn (after one warm-up)."""
    times = {name: [] for name in fns}
    for fn in fns.values():
        fn()
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


# ---- 1. a chain of small ops -------------------------------------------------------------------

def chain_minigrad(n, between=None):
    """`between`, if given, is called after the forward and before the backward."""
    x = Tensor(np.array([0.5]), requires_grad=True)
    c = Tensor(np.array([0.9]))
    y = x
    for i in range(n):
        y = y + c if i % 3 == 0 else y * c if i % 3 == 1 else y.tanh()
    loss = y.sum()
    if between is not None:
        between()
    loss.backward()
    return x.grad


def chain_numpy(n):
    x = np.array([0.5])
    c = np.array([0.9])
    y = x
    for i in range(n):
        y = y + c if i % 3 == 0 else y * c if i % 3 == 1 else np.tanh(y)
    return y


def chain_torch(n):
    x = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
    c = torch.tensor([0.9], dtype=torch.float64)
    y = x
    for i in range(n):
        y = y + c if i % 3 == 0 else y * c if i % 3 == 1 else y.tanh()
    y.sum().backward()
    return x.grad


# ---- 2. an unrolled LSTM from primitive ops ----------------------------------------------------

def lstm_weights(config, seed=0):
    """Inputs and weights as NumPy arrays, shared by the three versions."""
    rng = np.random.default_rng(seed)
    H, dtype = config.hidden, np.dtype(config.dtype)
    scale = 1 / np.sqrt(H)
    return {
        "x": rng.standard_normal((config.steps, config.batch, config.input_size)).astype(dtype),
        "w_ih": rng.uniform(-scale, scale, (config.input_size, 4 * H)).astype(dtype),
        "w_hh": rng.uniform(-scale, scale, (H, 4 * H)).astype(dtype),
        "bias": rng.uniform(-scale, scale, 4 * H).astype(dtype),
    }


def lstm_step(x, h, c, w_ih, w_hh, bias, H, sigmoid, tanh):
    """One LSTM step; works on minigrad tensors, NumPy arrays and PyTorch tensors alike."""
    gates = x @ w_ih + h @ w_hh + bias                 # (B, 4H)
    i = sigmoid(gates[:, :H])                          # (B, H) input gate
    f = sigmoid(gates[:, H:2 * H])                     # (B, H) forget gate
    g = tanh(gates[:, 2 * H:3 * H])                    # (B, H) candidate cell
    o = sigmoid(gates[:, 3 * H:])                      # (B, H) output gate
    c = f * c + i * g                                  # (B, H)
    h = o * tanh(c)                                    # (B, H)
    return h, c


def lstm_minigrad(arrays, config, between=None):
    w_ih, w_hh, bias = (Tensor(arrays[k], requires_grad=True) for k in ("w_ih", "w_hh", "bias"))
    h = c = Tensor(np.zeros((config.batch, config.hidden), dtype=config.dtype))
    for x in arrays["x"]:
        h, c = lstm_step(Tensor(x), h, c, w_ih, w_hh, bias, config.hidden,
                         Tensor.sigmoid, Tensor.tanh)
    loss = h.sum()
    if between is not None:
        between()
    loss.backward()
    return w_ih.grad


def lstm_numpy(arrays, config):
    def sigmoid(z):
        return 0.5 * (np.tanh(0.5 * z) + 1)

    h = c = np.zeros((config.batch, config.hidden), dtype=config.dtype)
    for x in arrays["x"]:
        h, c = lstm_step(x, h, c, arrays["w_ih"], arrays["w_hh"], arrays["bias"], config.hidden,
                         sigmoid, np.tanh)
    return h.sum()


def lstm_torch(arrays, config):
    w_ih, w_hh, bias = (torch.tensor(arrays[k], requires_grad=True)
                        for k in ("w_ih", "w_hh", "bias"))
    h = c = torch.zeros((config.batch, config.hidden), dtype=getattr(torch, config.dtype))
    for x in torch.from_numpy(arrays["x"]):
        h, c = lstm_step(x, h, c, w_ih, w_hh, bias, config.hidden, torch.sigmoid, torch.tanh)
    h.sum().backward()
    return w_ih.grad


# ---- 3. checks of the saved arrays: the version check, its slow path, the guard ------------------

def saved_check_cost(arrays, config):
    """{workload: (seconds default, clock moved, guard on)}: the chain per op, and the LSTM."""
    n = config.chain_length
    spare = Tensor(np.zeros(1))

    def move_clock():
        nonlocal spare
        spare += 1.0                    # in place, on a tensor no op saved: the clock moves

    def guarded(fn):
        def run():
            with guard_saved():
                return fn()
        return run

    def timings(fn, unit):
        return tuple(best_time(f, config.repeats) / unit
                     for f in (fn, lambda: fn(between=move_clock), guarded(fn)))

    return {"chain, us/op": timings(lambda **kw: chain_minigrad(n, **kw), n * 1e-6),
            "LSTM, ms": timings(lambda **kw: lstm_minigrad(arrays, config, **kw), 1e-3)}


# ---- the table ---------------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=Config.repeats)
    parser.add_argument("--rounds", type=int, default=Config.rounds)
    parser.add_argument("--chain-length", type=int, default=Config.chain_length)
    parser.add_argument("--dtype", choices=["float32", "float64"], default=Config.dtype)
    parser.add_argument("--lstm-only", action="store_true", help="skip the chain of small ops")
    args = parser.parse_args(argv)
    config = Config(repeats=args.repeats, rounds=args.rounds, chain_length=args.chain_length,
                    dtype=args.dtype)
    n = config.chain_length

    if not args.lstm_only:
        print(f"minigrad engine benchmark (best of {config.repeats}; one BLAS thread"
              f"{'' if torch is None else f'; PyTorch {torch.__version__}'})\n")
        print(f"1. chain of {n} small ops (add, mul, tanh on shape (1,)), per op, "
              f"{config.rounds} rounds side by side")
        chain = {"minigrad (fwd+bwd)": lambda: chain_minigrad(n),
                 "NumPy (fwd only)": lambda: chain_numpy(n)}
        if torch is not None:
            chain["PyTorch (fwd+bwd)"] = lambda: chain_torch(n)
        print_rounds(side_by_side(chain, config.rounds), n)
        print(f"\n2. LSTM, {config.steps} steps unrolled, batch {config.batch}, input "
              f"{config.input_size}, hidden {config.hidden}, {config.dtype}")
    else:
        print(f"\n   the same LSTM, allocator keeping freed memory ({KEEP_FREED_MEMORY})")

    arrays = lstm_weights(config)
    lstm = {"minigrad (fwd+bwd)": measure(lambda: lstm_minigrad(arrays, config), config.repeats),
            "NumPy (fwd only)": measure(lambda: lstm_numpy(arrays, config), config.repeats)}
    if torch is not None:
        lstm["PyTorch (fwd+bwd)"] = measure(lambda: lstm_torch(arrays, config), config.repeats)
    print_table({k: t for k, (t, _) in lstm.items()}, unit=1e-3, unit_name="ms",
                faults={k: f for k, (_, f) in lstm.items()})

    if not args.lstm_only and sys.platform == "linux":
        sys.stdout.flush()
        child = [sys.executable, __file__, "--lstm-only", "--repeats", str(config.repeats),
                 "--dtype", config.dtype]
        subprocess.run(child, env={**os.environ, "GLIBC_TUNABLES": KEEP_FREED_MEMORY}, check=True)

    if not args.lstm_only:
        print("\n3. checks of the saved arrays, minigrad fwd+bwd: the version check (always on), "
              "its slow path\n   (the clock moved between forward and backward), "
              "minigrad.debug.guard_saved()")
        print(f"   {'':20s} {'default':>10s}   {'clock moved':>11s} {'/ default':>9s}   "
              f"{'guard':>10s} {'/ default':>9s}")
        for name, (default, moved, guard) in saved_check_cost(arrays, config).items():
            print(f"   {name:20s} {default:10.3f}   {moved:11.3f} {moved / default:9.2f}   "
                  f"{guard:10.3f} {guard / default:9.2f}")


def print_rounds(times, n):
    """The chain's table: median and best round per op, and the medians' ratio to PyTorch's."""
    medians = {name: statistics.median(t) / n for name, t in times.items()}
    reference_name = "PyTorch (fwd+bwd)" if "PyTorch (fwd+bwd)" in times else "minigrad (fwd+bwd)"
    print(f"   {'':20s} {'us/op median':>12s} {'best':>8s}   "
          f"{'/ ' + reference_name.split()[0] + ' (medians)':>20s}")
    for name, seconds in times.items():
        print(f"   {name:20s} {medians[name] * 1e6:12.3f} {min(seconds) / n * 1e6:8.3f}   "
              f"{medians[name] / medians[reference_name]:20.2f}")


def print_table(times, unit, unit_name, faults=None):
    """One line per framework, with its ratio to PyTorch (or to minigrad without PyTorch)."""
    reference_name = "PyTorch (fwd+bwd)" if "PyTorch (fwd+bwd)" in times else "minigrad (fwd+bwd)"
    reference = times[reference_name]
    header = f"   {'':20s} {unit_name:>10s}   {'/ ' + reference_name.split()[0]:>12s}"
    print(header + ("" if faults is None else f"   {'page faults/run':>16s}"))
    for name, seconds in times.items():
        line = f"   {name:20s} {seconds / unit:10.3f}   {seconds / reference:12.2f}"
        print(line + ("" if faults is None else f"   {faults[name]:16.0f}"))


if __name__ == "__main__":
    main()
