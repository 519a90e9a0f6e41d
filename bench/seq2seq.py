"""Seconds per training iteration of the date model, minigrad and PyTorch side by side.

    python bench/seq2seq.py                  # timing only (a few dozen iterations each)
    python bench/seq2seq.py --full           # also the whole book setup: 3 epochs, accuracy

The model and data are those of the "Deep Learning from Scratch 2" date model: characters,
reversed input, embedding 16, hidden 256, batch 128, Adam 1e-3, gradient norm clipped to 5, dot
attention in the Luong wiring. Data: the 50,000 date pairs of the shared data folder when present
(a tenth of the distinct sources held out for validation, with all their pairs: 45,770 pairs to
train, 4,230 to validate), otherwise the built-in `dates` task.
One iteration = forward, backward, clipping and the Adam step on one batch of 128.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"          # before NumPy is imported

import argparse
import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import minigrad
from minigrad.memory import keep_freed_memory
from minigrad.nn.utils import clip_grad_norm_
from minigrad.optim import Adam
from seq2seq.commands.train import TrainConfig, train
from seq2seq.data import tasks
from seq2seq.data.batching import batches, encode_source, encode_target
from seq2seq.data.vocab import Vocab, tokenize
from seq2seq.models.rnn import Seq2Seq

DATES = ROOT.parent / "shared" / "data" / "dates-dlfs2.txt"


def date_pairs():
    if DATES.exists():
        return tasks.load_pairs(DATES, sep="_"), str(DATES.name)
    return tasks.make_task("dates", 50000, seed=0), "the built-in dates task"


def example_batches(pairs, batch_size, count):
    src_vocab = Vocab.build(tokenize(s, "char") for s, _ in pairs)
    tgt_vocab = Vocab.build(tokenize(t, "char") for _, t in pairs)
    examples = [(encode_source(s, src_vocab, "char", reverse_input=True),
                 encode_target(t, tgt_vocab, "char")) for s, t in pairs[:batch_size * count]]
    return list(batches(examples, batch_size, src_vocab.pad_id, np.random.default_rng(0))), \
        len(src_vocab), len(tgt_vocab)


def time_minigrad(batch_list, src_v, tgt_v, fused, repeats):
    minigrad.manual_seed(0)
    model = Seq2Seq(src_v, tgt_v, embed_size=16, hidden_size=256, attention="dot", fused=fused)
    optimizer = Adam(model.parameters(), lr=1e-3)

    def step(src, tgt):
        loss = model.loss(src, tgt)
        optimizer.zero_grad()
        loss.backward()
        clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()

    return best_per_iteration(step, batch_list, repeats)


def time_torch(batch_list, src_v, tgt_v, repeats):
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(0)
    nn = torch.nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.src_embed = nn.Embedding(src_v, 16, padding_idx=0)
            self.encoder = nn.LSTM(16, 256, batch_first=True)
            self.tgt_embed = nn.Embedding(tgt_v, 16, padding_idx=0)
            self.decoder = nn.LSTM(16, 256, batch_first=True)
            self.out = nn.Linear(512, tgt_v)

        def forward(self, src, tgt_in):
            enc, state = self.encoder(self.src_embed(src))              # (B, S, H)
            states, _ = self.decoder(self.tgt_embed(tgt_in), state)     # (B, T, H)
            scores = states @ enc.transpose(1, 2)                       # (B, T, S)
            scores = scores.masked_fill((src == 0)[:, None, :], float("-inf"))
            weights = scores.softmax(-1)
            context = weights @ enc                                     # (B, T, H)
            return self.out(torch.cat([context, states], -1))

    model = Model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    tensors = [(torch.from_numpy(s), torch.from_numpy(t)) for s, t in batch_list]

    def step(src, tgt):
        logits = model(src, tgt[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, tgt_v), tgt[:, 1:].reshape(-1),
                                           ignore_index=0)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()

    return best_per_iteration(step, tensors, repeats)


def best_per_iteration(step, batch_list, repeats):
    step(*batch_list[0])                                 # warm-up
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for src, tgt in batch_list:
            step(src, tgt)
        best = min(best, (time.perf_counter() - start) / len(batch_list))
    return best


def full_run(seed):
    config = TrainConfig(task=str(DATES), sep="_", out=str(ROOT / "runs" / "dates-book"),
                         attention="dot", embed_size=16, hidden_size=256, batch_size=128,
                         epochs=3, lr=1e-3, clip=5.0, reverse_input=True, level="char",
                         val_fraction=0.1, seed=seed, progress=False,
                         overwrite=True)            # the benchmark's own folder, run again
    start = time.perf_counter()
    _, history = train(config)
    return history, time.perf_counter() - start


CONTENDERS = ("minigrad-fused", "minigrad-composed", "pytorch")


def time_one(name, iterations, repeats, keep_memory):
    """Seconds per iteration of one contender, in this process."""
    if keep_memory and not keep_freed_memory():
        raise SystemExit("bench/seq2seq.py: mallopt is not available (the C library is not glibc)")
    pairs, _ = date_pairs()
    batch_list, src_v, tgt_v = example_batches(pairs, 128, iterations)
    if name == "pytorch":
        return time_torch(batch_list, src_v, tgt_v, repeats)
    return time_minigrad(batch_list, src_v, tgt_v, name == "minigrad-fused", repeats)


def time_in_fresh_process(name, args, keep_memory):
    """Each contender runs in a new process, so the allocator's state is its own."""
    command = [sys.executable, __file__, "--only", name, "--iterations", str(args.iterations),
               "--repeats", str(args.repeats)] + (["--keep-freed-memory"] if keep_memory else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"bench/seq2seq.py: timing {name} failed:\n{result.stderr}")
    return float(result.stdout.split()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="train the book setup for 3 epochs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=CONTENDERS, help="time this one alone, print seconds")
    parser.add_argument("--keep-freed-memory", action="store_true",
                        help="with --only: minigrad.memory.keep_freed_memory() first")
    args = parser.parse_args()
    if args.only:
        print(time_one(args.only, args.iterations, args.repeats, args.keep_freed_memory))
        return

    _, source = date_pairs()
    has_torch = importlib.util.find_spec("torch") is not None
    print(f"date model, {source}: batch 128, embedding 16, hidden 256, dot attention; "
          f"best of {args.repeats} x {args.iterations} iterations, one BLAS thread, "
          "each row in a fresh process")
    print("malloc as it comes, and malloc keeping freed memory (minigrad.memory; what "
          "`python -m seq2seq train` does)\n")
    rows = {}
    for name in CONTENDERS if has_torch else CONTENDERS[:2]:
        rows[name] = [time_in_fresh_process(name, args, keep) for keep in (False, True)]
    reference = rows["pytorch"][0] if has_torch else None
    print(f"{'':22s}{'s / iteration':>15s}{'kept memory':>13s}" +
          (f"{'/ PyTorch':>11s}{'kept / PyTorch':>16s}" if has_torch else ""))
    for name, (plain, kept) in rows.items():
        line = f"{name:22s}{plain:15.4f}{kept:13.4f}"
        if reference:
            line += f"{plain / reference:11.2f}{kept / reference:16.2f}"
        print(line)
    fused, composed = rows["minigrad-fused"], rows["minigrad-composed"]
    print(f"\ncomposed / fused: {composed[0] / fused[0]:.2f} (kept memory: "
          f"{composed[1] / fused[1]:.2f})")

    if args.full:
        if not DATES.exists():
            print("\nthe shared dates file is absent: no full run")
            return
        history, seconds = full_run(args.seed)
        print(f"\nbook setup, 3 epochs, seed {args.seed}: {seconds:.0f} s")
        for h in history:
            print(f"  epoch {h['epoch']}: loss {h['loss']:.4f}  validation exact match "
                  f"{h['exact_match']:.2%}")


if __name__ == "__main__":
    main()
