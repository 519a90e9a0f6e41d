"""One training iteration of a small encoder-decoder Transformer, minigrad and PyTorch side by side.

    python bench/transformer.py                 # or: make bench
    python bench/transformer.py --rounds 31 --iterations 10
    python bench/transformer.py --profile       # cProfile of minigrad's iteration, top functions

The model: token embeddings (scaled by sqrt(d_model)) plus sinusoidal positions, 2 encoder
blocks and 2 decoder blocks (attention.EncoderBlock / DecoderBlock, pre-norm), a final LayerNorm
after each stack, and a Linear to the vocabulary. d_model 64, 4 heads, d_ff 128, batch 32,
source and target length 12 (the sources padded: lengths 6 to 12, pad id 0), vocabulary 20,
float32. The same model in PyTorch is built from the same modules, torch.nn.Embedding,
torch.nn.TransformerEncoderLayer / TransformerDecoderLayer (batch_first=True, norm_first=True:
attention.to_torch copies each block), torch.nn.LayerNorm and torch.nn.Linear, with the same
weights. PyTorch's attention also drops attention weights (ours does not): that dropout is set to
0 in its layers, so that both do the same work.

One iteration = forward, cross-entropy loss (padding ignored), backward, Adam step
(zero_grad first). Each row runs with dropout 0.1 and with dropout 0. At dropout 0 both compute
the same loss and gradients, checked before timing (else the race is unfair).

Everything runs in this one process on one BLAS thread (OPENBLAS_NUM_THREADS=1 and
torch.set_num_threads(1)). The two frameworks take turns, round after round (--rounds), each
running --iterations iterations per round, so that a machine busy with other work slows them
alike; the table gives the median time per iteration over the rounds, and the ratio of the
medians, minigrad / PyTorch (below 1: minigrad is faster). Each in wall-clock time and in CPU
time (time.process_time, all of this process's threads): on a machine busy with other work the
wall clock also counts the time other processes held the CPU, and the CPU time does not.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS"):
    os.environ[_name] = "1"          # before NumPy is imported, or the BLAS ignores it

import argparse
import cProfile
import importlib.util
import math
import pstats
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import minigrad
import minigrad.functional as F
from minigrad.nn import Embedding, LayerNorm, Linear, Module, ModuleList
from minigrad.optim import Adam
from attention.blocks import DecoderBlock, EncoderBlock
from attention.masks import padding_mask
from attention.positions import SinusoidalPositions

PAD = 0


@dataclass
class Config:
    layers: int = 2                   # encoder blocks, and decoder blocks
    d_model: int = 64
    nhead: int = 4
    dim_feedforward: int = 128
    batch: int = 32
    length: int = 12                  # of the sources and of the decoder's inputs
    vocab: int = 20
    rounds: int = 15
    iterations: int = 5               # per framework per round
    dtype: str = "float32"


class Transformer(Module):
    """The benchmark's encoder-decoder: embeddings + positions, the blocks, a final norm after
    each stack, the output projection. forward(src (B, S), tgt_in (B, T)) -> logits (B, T, V)."""

    def __init__(self, config, dropout):
        d = config.d_model
        self.src_embed = Embedding(config.vocab, d, padding_idx=PAD)
        self.tgt_embed = Embedding(config.vocab, d, padding_idx=PAD)
        self.positions = SinusoidalPositions(d, max_len=config.length)
        sizes = (d, config.nhead, config.dim_feedforward, dropout)
        self.encoder = ModuleList(EncoderBlock(*sizes) for _ in range(config.layers))
        self.encoder_norm = LayerNorm(d, fused=True)
        self.decoder = ModuleList(DecoderBlock(*sizes) for _ in range(config.layers))
        self.decoder_norm = LayerNorm(d, fused=True)
        self.out = Linear(d, config.vocab)
        self.scale = math.sqrt(d)

    def forward(self, src, tgt_in):
        source_mask = padding_mask(src, PAD)                            # (B, 1, S)
        x = self.positions(self.src_embed(src) * self.scale)            # (B, S, d)
        for block in self.encoder:
            x = block(x, mask=source_mask)                              # (B, S, d)
        memory = self.encoder_norm(x)                                   # (B, S, d)
        y = self.positions(self.tgt_embed(tgt_in) * self.scale)         # (B, T, d)
        for block in self.decoder:
            y = block(y, memory, memory_mask=source_mask)               # (B, T, d)
        return self.out(self.decoder_norm(y))                           # (B, T, V)


def make_batch(config, seed=0):
    """src (B, S) padded at the end, tgt (B, T + 1): ids in 1 ... vocab - 1, PAD = 0."""
    rng = np.random.default_rng(seed)
    B, T = config.batch, config.length
    src = rng.integers(1, config.vocab, (B, T))
    lengths = rng.integers(T // 2, T + 1, B)
    src = np.where(np.arange(T) < lengths[:, None], src, PAD)
    tgt = rng.integers(1, config.vocab, (B, T + 1))
    return src, tgt


def minigrad_contender(config, dropout):
    """(model, step): step() runs one iteration; step(check=True) the same without the Adam step,
    returning the loss and the gradients {name: array}."""
    minigrad.manual_seed(0)
    model = Transformer(config, dropout).to(config.dtype)
    optimizer = Adam(model.parameters(), lr=1e-4)
    src, tgt = make_batch(config)

    def step(check=False):
        logits = model(src, tgt[:, :-1])                                # (B, T, V)
        loss = F.cross_entropy(logits, tgt[:, 1:], ignore_index=PAD)
        optimizer.zero_grad()
        loss.backward()
        if check:                               # no step: the loss and the gradients
            return loss.item(), {name: p.grad for name, p in model.named_parameters()}
        optimizer.step()

    return model, step


def torch_contender(config, dropout, ours):
    """The same model in PyTorch, with `ours`'s weights."""
    import torch

    from attention.to_torch import decoder_block_to_torch, encoder_block_to_torch
    nn = torch.nn

    class TorchTransformer(nn.Module):
        def __init__(self):
            super().__init__()
            d = config.d_model
            self.src_embed = nn.Embedding(config.vocab, d, padding_idx=PAD)
            self.tgt_embed = nn.Embedding(config.vocab, d, padding_idx=PAD)
            self.register_buffer("pe", torch.from_numpy(ours.positions.pe.astype(config.dtype)))
            self.encoder = nn.ModuleList(encoder_block_to_torch(b) for b in ours.encoder)
            self.encoder_norm = nn.LayerNorm(d)
            self.decoder = nn.ModuleList(decoder_block_to_torch(b) for b in ours.decoder)
            self.decoder_norm = nn.LayerNorm(d)
            self.out = nn.Linear(d, config.vocab)
            self.scale = math.sqrt(d)
            self.causal = nn.Transformer.generate_square_subsequent_mask(config.length)
            for layer in [*self.encoder, *self.decoder]:
                for attention in (layer.self_attn, getattr(layer, "multihead_attn", None)):
                    if attention is not None:
                        attention.dropout = 0.0     # ours drops no attention weights

        def forward(self, src, tgt_in):
            src_padding = src == PAD                                    # True = may NOT attend
            x = self.src_embed(src) * self.scale + self.pe[:src.shape[1]]
            for layer in self.encoder:
                x = layer(x, src_key_padding_mask=src_padding)
            memory = self.encoder_norm(x)
            y = self.tgt_embed(tgt_in) * self.scale + self.pe[:tgt_in.shape[1]]
            for layer in self.decoder:
                y = layer(y, memory, tgt_mask=self.causal, tgt_is_causal=True,
                          memory_key_padding_mask=src_padding)
            return self.out(self.decoder_norm(y))

    model = TorchTransformer()
    copied = {f"{name}.{key}" if name else key: value
              for name in ("src_embed", "tgt_embed", "encoder_norm", "decoder_norm", "out")
              for key, value in getattr(ours, name).state_dict().items()}
    model.load_state_dict({name: torch.from_numpy(np.array(value))
                           for name, value in copied.items()}, strict=False)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    src, tgt = (torch.from_numpy(a) for a in make_batch(config))

    def step(check=False):
        logits = model(src, tgt[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, config.vocab),
                                           tgt[:, 1:].reshape(-1), ignore_index=PAD)
        optimizer.zero_grad()
        loss.backward()
        if check:
            return loss.item(), {name: p.grad.numpy() for name, p in model.named_parameters()}
        optimizer.step()

    return model, step


def check_agreement(ours, theirs):
    """At dropout 0, before any step: the same loss and the same gradients."""
    loss, grads = ours(check=True)
    their_loss, their_grads = theirs(check=True)
    if not np.isclose(loss, their_loss, rtol=1e-5):
        raise SystemExit(f"bench/transformer.py: the losses differ: {loss} and {their_loss}")
    for name, grad in grads.items():
        if not np.allclose(grad, their_grads[name], rtol=1e-3, atol=1e-5):
            worst = np.abs(grad - their_grads[name]).max()
            raise SystemExit(f"bench/transformer.py: the gradients of {name} differ by {worst}")


def side_by_side(steps, config):
    """{name: ([wall-clock seconds per iteration, each round], [CPU seconds likewise])}: each
    framework in turn, round after round, after a few warm-up iterations."""
    times = {name: ([], []) for name in steps}
    for step in steps.values():
        for _ in range(3):
            step()
    for _ in range(config.rounds):
        for name, step in steps.items():
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(config.iterations):
                step()
            times[name][0].append((time.perf_counter() - wall) / config.iterations)
            times[name][1].append((time.process_time() - cpu) / config.iterations)
    return times


def profile(config, dropout, top=30):
    """cProfile of minigrad's iteration: the functions that take the most time, themselves."""
    _, step = minigrad_contender(config, dropout)
    step()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(config.iterations * 4):
        step()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=Config.rounds)
    parser.add_argument("--iterations", type=int, default=Config.iterations,
                        help="iterations per framework per round")
    parser.add_argument("--profile", action="store_true",
                        help="profile minigrad's iteration (dropout 0.1) instead of timing")
    args = parser.parse_args(argv)
    config = Config(rounds=args.rounds, iterations=args.iterations)
    if args.profile:
        profile(config, 0.1)
        return

    has_torch = importlib.util.find_spec("torch") is not None
    print(f"Transformer training iteration: {config.layers} + {config.layers} layers, d_model "
          f"{config.d_model}, {config.nhead} heads, d_ff {config.dim_feedforward}, batch "
          f"{config.batch}, lengths {config.length}, vocabulary {config.vocab}, "
          f"{config.dtype}, one thread;\nmedian of {config.rounds} rounds of "
          f"{config.iterations} iterations each" +
          ("" if has_torch else " (PyTorch is not installed)"))
    if has_torch:
        import torch
        torch.set_num_threads(1)
        torch.manual_seed(0)
    print(f"\n   {'':14s}{'wall clock, ms':^26s}{'':6s}{'CPU time, ms':^26s}".rstrip())
    print((f"   {'':14s}" + f"{'minigrad':>10s}{'PyTorch':>9s}{'ratio':>7s}{'':6s}" * 2).rstrip())
    for dropout in (0.1, 0.0):
        model, ours = minigrad_contender(config, dropout)
        steps = {"minigrad": ours}
        if has_torch:
            _, steps["pytorch"] = torch_contender(config, dropout, model)
            if dropout == 0:
                check_agreement(*steps.values())
        times = side_by_side(steps, config)
        line = f"   {f'dropout {dropout}':14s}"
        for clock in (0, 1):                        # wall clock, then CPU time
            medians = {name: statistics.median(t[clock]) for name, t in times.items()}
            line += f"{medians['minigrad'] * 1e3:10.1f}"
            if has_torch:
                line += (f"{medians['pytorch'] * 1e3:9.1f}"
                         f"{medians['minigrad'] / medians['pytorch']:6.2f}x{'':6s}")
        print(line.rstrip())

if __name__ == "__main__":
    main()
