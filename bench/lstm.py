"""Benchmark of minigrad's LSTM layer, composed and fused, side by side with PyTorch.

    python bench/lstm.py                  # or: make bench
    python bench/lstm.py --repeats 5 --dtype float64

One LSTM layer over 29 steps (batch 128, input 16, hidden 256), forward + backward of the sum of
its outputs, best of N runs, with the same weights everywhere:

  minigrad composed       nn.LSTM(fused=False): each step ~20 primitive ops
  minigrad fused          nn.LSTM(fused=True): the whole sequence one op (FusedLSTM), with
                          backpropagation through time written by hand
  minigrad fused steps    the same layer one step at a time (LSTM.cell): one FusedLSTMCell op
                          per step, each with its own weight-gradient matmuls
  PyTorch primitive ops   the same equations written with torch ops
  torch.nn.LSTM           PyTorch's own layer (on CPU it may use oneDNN's fused RNN kernel)
  torch.nn.LSTM, ATen     the same with oneDNN switched off (PyTorch's composed C++ path)
  NumPy forward only      the forward pass on plain arrays: a floor for the forward half
  NumPy W_hh matmuls      only the three (B, H) x (H, 4H)-sized matmuls per step that any
                          forward + backward needs (h W_hh^T, dA W_hh, dA^T h): the BLAS floor

Everything runs on one BLAS thread, and each figure comes from a fresh process that runs one
contender alone (the minigrad ones without importing PyTorch). With glibc there are two
columns: malloc as it comes, and malloc told to keep freed memory (mallopt). As it comes, glibc
may hand big freed arrays back to the system, and the next run faults them in again page by
page; how much it does so depends on the history of the process, and each page fault can cost
microseconds (more in a virtual machine). The page-fault counts show when that happened.

Most of the time goes into matrix products, and PyTorch brings its own kernels for them (oneDNN,
MKL) while NumPy calls its BLAS, usually OpenBLAS. OpenBLAS picks kernels for the CPU when it
loads, unless OPENBLAS_CORETYPE in the environment names others (Haswell: AVX2, SkylakeX:
AVX-512); the header names the kernels in use. Compare like with like.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS"):
    os.environ[_name] = "1"          # before NumPy is imported, or the BLAS ignores it

import argparse
import ctypes
import importlib.util
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import minigrad
import minigrad.functional as F
from minigrad import Tensor, nn

MINIGRAD = ["minigrad composed", "minigrad fused", "minigrad fused steps", "NumPy forward only",
            "NumPy W_hh matmuls"]
PYTORCH = ["PyTorch primitive ops", "torch.nn.LSTM", "torch.nn.LSTM, ATen"]


@dataclass
class Config:
    steps: int = 29
    batch: int = 128
    input_size: int = 16
    hidden: int = 256
    repeats: int = 7                  # each figure is the best of this many runs
    dtype: str = "float32"


def best_time(fn, repeats):
    """The fastest of `repeats` runs of fn(), in seconds (after one warm-up run), and the page
    faults per run: pages of memory that the system had to hand over afresh (0 where unknown)."""
    fn()
    times, faults = [], page_faults()
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), (page_faults() - faults) // repeats


def page_faults():
    """Minor page faults of this process so far (0 without the `resource` module)."""
    try:
        import resource
    except ImportError:                 # not on Unix
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


# ---- the contenders: each runs forward + backward and returns dL/dW_hh -------------------------

def minigrad_lstm(lstm, x):
    lstm.zero_grad()
    outputs, _ = lstm(x)                                 # (B, T, H)
    outputs.sum().backward()
    return lstm.weight_hh_l0.grad


def minigrad_lstm_steps(lstm, x):
    """The layer one fused step at a time, as a decoder that feeds its outputs back runs it."""
    lstm.zero_grad()
    state, outputs = None, []
    for t in range(x.shape[1]):
        state = lstm.cell(x[:, t], state)                # (B, H) each
        outputs.append(state[0])
    F.stack(outputs, axis=1).sum().backward()            # (B, T, H)
    return lstm.weight_hh_l0.grad


def numpy_forward(weights, x):
    """The forward pass on plain arrays, input projections for all steps in one matmul."""
    w_ih, w_hh, b_ih, b_hh = weights
    H = w_hh.shape[1]
    gates_x = x @ w_ih.T + (b_ih + b_hh)                 # (B, T, 4H)
    h = c = np.zeros((x.shape[0], H), dtype=x.dtype)
    for t in range(x.shape[1]):
        gates = gates_x[:, t] + h @ w_hh.T               # (B, 4H)
        i, f, o = (0.5 * (np.tanh(0.5 * gates[:, k * H:(k + 1) * H]) + 1) for k in (0, 1, 3))
        g = np.tanh(gates[:, 2 * H:3 * H])
        c = f * c + i * g
        h = o * np.tanh(c)
    return h


def numpy_matmuls(weights, x):
    """The recurrent matmuls alone: forward h W_hh^T, backward dA W_hh and dA^T h, per step."""
    w_hh = weights[1]
    h = np.ones((x.shape[0], w_hh.shape[1]), dtype=x.dtype)             # (B, H)
    grad_gates = np.ones((x.shape[0], w_hh.shape[0]), dtype=x.dtype)    # (B, 4H)
    for _ in range(x.shape[1]):
        gates = h @ w_hh.T                                              # (B, 4H)
        grad_h = grad_gates @ w_hh                                      # (B, H)
        grad_w_hh = grad_gates.T @ h                                    # (4H, H)
    return gates, grad_h, grad_w_hh


def torch_primitive(torch, weights, x):
    """The composed cell's equations, op by op, in PyTorch."""
    w_ih, w_hh, b_ih, b_hh = weights
    for w in weights:
        w.grad = None
    H = w_hh.shape[1]
    h = c = torch.zeros((x.shape[0], H), dtype=x.dtype)
    outputs = []
    for t in range(x.shape[1]):
        gates = x[:, t] @ w_ih.T + h @ w_hh.T + (b_ih + b_hh)
        i = torch.sigmoid(gates[:, 0 * H:1 * H])
        f = torch.sigmoid(gates[:, 1 * H:2 * H])
        g = torch.tanh(gates[:, 2 * H:3 * H])
        o = torch.sigmoid(gates[:, 3 * H:4 * H])
        c = f * c + i * g
        h = o * torch.tanh(c)
        outputs.append(h)
    torch.stack(outputs, dim=1).sum().backward()
    return w_hh.grad


def torch_lstm(torch, lstm, x, onednn=True):
    lstm.zero_grad()
    with torch.backends.mkldnn.flags(enabled=onednn):
        outputs, _ = lstm(x)
        outputs.sum().backward()
    return lstm.weight_hh_l0.grad


def contenders(config, names):
    """{name: fn()} for the named versions, all starting from the same weights and input.
    PyTorch is imported only if one of them needs it."""
    minigrad.manual_seed(0)
    composed = nn.LSTM(config.input_size, config.hidden).to(config.dtype)
    fused = nn.LSTM(config.input_size, config.hidden, fused=True).to(config.dtype)
    fused.load_state_dict(composed.state_dict())
    rng = np.random.default_rng(0)
    x = rng.standard_normal((config.batch, config.steps, config.input_size)).astype(config.dtype)
    weights = [p.data for p in composed.parameters()]

    runs = {"minigrad composed": lambda: minigrad_lstm(composed, Tensor(x)),
            "minigrad fused": lambda: minigrad_lstm(fused, Tensor(x)),
            "minigrad fused steps": lambda: minigrad_lstm_steps(fused, Tensor(x)),
            "NumPy forward only": lambda: numpy_forward(weights, x),
            "NumPy W_hh matmuls": lambda: numpy_matmuls(weights, x)}
    if any(name in PYTORCH for name in names):
        import torch
        torch.set_num_threads(1)
        dtype = getattr(torch, config.dtype)
        theirs = torch.nn.LSTM(config.input_size, config.hidden, batch_first=True).to(dtype)
        theirs.load_state_dict({k: torch.from_numpy(v) for k, v in composed.state_dict().items()})
        primitive = [torch.tensor(w, requires_grad=True) for w in weights]
        tx = torch.from_numpy(x)
        runs["PyTorch primitive ops"] = lambda: torch_primitive(torch, primitive, tx)
        runs["torch.nn.LSTM"] = lambda: torch_lstm(torch, theirs, tx)
        runs["torch.nn.LSTM, ATen"] = lambda: torch_lstm(torch, theirs, tx, onednn=False)
    return {name: runs[name] for name in names}


def check_agreement(runs, dtype):
    """Every version with a backward computes the same dL/dW_hh (else the race is unfair)."""
    reference = np.asarray(runs["minigrad composed"]())
    tolerance = 1e-3 if dtype == "float32" else 1e-9
    for name, fn in runs.items():
        if not name.startswith("NumPy"):
            grad = fn()
            grad = grad.numpy() if hasattr(grad, "numpy") else grad
            if np.abs(grad - reference).max() > tolerance * np.abs(reference).max():
                raise SystemExit(f"bench/lstm.py: {name} computes a different gradient")


def numpy_blas():
    """NumPy's BLAS library, its version and the kernels it picked for this CPU (as far as
    threadpoolctl can tell; call before PyTorch brings in a BLAS of its own)."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (threadpoolctl is not installed)"
    blas = [lib for lib in threadpool_info() if lib.get("user_api") == "blas"]
    if not blas:
        return "unknown"
    name, kernels = f"{blas[0]['internal_api']} {blas[0]['version']}", blas[0].get("architecture")
    return f"{name}, {kernels} kernels" if kernels else name


def keep_freed_memory():
    """Tell glibc's malloc to keep freed memory for reuse (no trimming, no mmap for big
    arrays). Returns False where that is not possible (another C library)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
        return bool(libc.mallopt(M_TRIM_THRESHOLD, 2 ** 30)
                    and libc.mallopt(M_MMAP_THRESHOLD, 2 ** 30))
    except (OSError, AttributeError):
        return False


def time_in_fresh_process(name, config, keep_memory):
    """Time one contender in a new Python process, so that the allocator's state depends on it
    alone (glibc adapts its thresholds to the sizes freed so far)."""
    command = [sys.executable, __file__, "--only", name, "--repeats", str(config.repeats),
               "--dtype", config.dtype] + (["--keep-freed-memory"] if keep_memory else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"bench/lstm.py: timing {name} failed:\n{result.stderr}")
    seconds, faults = result.stdout.split()[-2:]
    return float(seconds), int(faults)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=Config.repeats)
    parser.add_argument("--dtype", choices=["float32", "float64"], default=Config.dtype)
    parser.add_argument("--only", choices=MINIGRAD + PYTORCH,
                        help="time this contender alone and print its seconds")
    parser.add_argument("--keep-freed-memory", action="store_true",
                        help="with --only: tell malloc to keep freed memory first")
    args = parser.parse_args(argv)
    config = Config(repeats=args.repeats, dtype=args.dtype)

    if args.only:
        if args.keep_freed_memory and not keep_freed_memory():
            raise SystemExit("bench/lstm.py: mallopt is not available (the C library is not glibc)")
        seconds, faults = best_time(contenders(config, [args.only])[args.only], config.repeats)
        print(seconds, faults)
        return

    has_torch = importlib.util.find_spec("torch") is not None
    names = MINIGRAD[:3] + (PYTORCH if has_torch else []) + MINIGRAD[3:]
    print(f"LSTM, {config.steps} steps, batch {config.batch}, input {config.input_size}, hidden "
          f"{config.hidden}, {config.dtype}, forward + backward, best of {config.repeats}, one "
          f"BLAS thread{'' if has_torch else ' (PyTorch is not installed)'}")
    print(f"NumPy's BLAS: {numpy_blas()}")
    check_agreement(contenders(config, names), config.dtype)
    modes = {"default malloc": False}
    if keep_freed_memory():                     # glibc: the second column is possible
        modes["malloc keeps memory"] = True
    columns = {title: {} for title in modes}
    for name in tqdm(names, desc="timing", leave=False):
        for title, keep in modes.items():
            columns[title][name] = time_in_fresh_process(name, config, keep)
    print_table(columns)


def print_table(columns):
    """Seconds and page faults per run in each column; then the ratios the targets are about."""
    print(f"\n   {'':24s}" + "".join(f"{title:>28s}" for title in columns))
    print(f"   {'':24s}" + f"{'seconds':>16s}{'page faults':>12s}" * len(columns))
    for name in next(iter(columns.values())):
        print(f"   {name:24s}" + "".join(f"{times[name][0]:16.4f}{times[name][1]:12d}"
                                          for times in columns.values()))
    ratios = [("minigrad composed", "PyTorch primitive ops"), ("minigrad fused", "torch.nn.LSTM"),
              ("minigrad fused", "torch.nn.LSTM, ATen"), ("minigrad fused", "minigrad composed"),
              ("minigrad fused", "minigrad fused steps")]
    print()
    for a, b in ratios:
        if b in columns["default malloc"]:
            print(f"   {a + ' / ' + b:50s}"
                  + "".join(f"{times[a][0] / times[b][0]:14.2f}x" for times in columns.values()))


if __name__ == "__main__":
    main()
