"""The Transformer (Vaswani et al., 2017): the encoder-decoder with attention and no recurrence.

Shapes: B batch, S source length, T target length, d d_model, V vocabulary, L layers, H heads.

Encoder       ids (B, S) -> embedding * sqrt(d) + positions -> L encoder blocks (self-attention,
              feed-forward) -> (final LayerNorm, pre-norm only) -> memory (B, S, d)
Decoder       ids (B, T) -> embedding * sqrt(d) + positions -> L decoder blocks (causal
              self-attention, cross-attention to the memory, feed-forward) -> (final LayerNorm)
              -> Linear -> logits (B, T, V)
Transformer   the two, with the interface of Seq2Seq (seq2seq/models/rnn.py): `encode`,
              `forward(src, tgt_in)`, `loss`, `config`, and `decoder.step`, so that greedy decoding
              and beam search (seq2seq/models/decoding.py) run it unchanged.

The blocks are attention.EncoderBlock and DecoderBlock (attention/blocks.py): both norm orders
written out there, "pre" (LayerNorm inside the residual, then one more at the end of each stack)
or "post" (the 2017 paper's LayerNorm(x + Sublayer(x))).

Decoding one token at a time: the decoder's state is the keys and values that every layer's
self-attention made for the tokens written so far, (k_1, v_1, k_2, v_2, ...), each
(B, H, t, d / H): one row per sentence, so beam search picks rows of it as it picks an LSTM's
(h, c). A step runs the new token only; its queries attend the kept keys (attention/cache.py),
and the result equals running the whole prefix again.

Padding: sources are padded on the left; padded positions are masked out of every attention over
the source (src_mask), so a sentence translates the same alone and in a batch. Padded target
positions get no loss (ignore_index); the causal mask keeps them out of every real position.

The attention weights kept for heatmaps: `decoder.cross_weights`, a list with one array per layer,
each (B, H, T, S): every head's weights over the source, from the last forward or step (T = 1
after a step); `decoder.self_weights` the same for the causal self-attention, (B, H, T, t).
What `forward` and `step` return is the last layer's cross-attention averaged over the heads.
"""

import math

import numpy as np

import minigrad.functional as F
from minigrad import Tensor, nn, scope
from attention.blocks import DecoderBlock, EncoderBlock
from attention.cache import KeyValueCache
from attention.positions import LearnedPositions, SinusoidalPositions
from seq2seq.models.block_contract import BlockContractError, check_block
from seq2seq.models.decoders import run_steps
from seq2seq.models.messages import message

NORMS = ("pre", "post")
POSITIONS = ("sinusoidal", "learned")


class Embedding(nn.Module):
    """ids (B, T) -> embedding(ids) * sqrt(d_model) + positions, then dropout.   -> (B, T, d)

    Why sqrt(d_model): the weights start small, N(0, 1/d_model) (as a Linear's would, and as
    fairseq's Transformer starts its embeddings), so that the output Linear and the embedding
    learn at the same pace; times sqrt(d_model), each feature of a token's vector is then about
    1 in size, the size of the positions' sines and cosines. Tokens and positions enter the first
    block on an equal footing: neither drowns the other. (The paper scales for the same reason:
    its embeddings share their weights with the output layer, whose weights are small.)

    Positions count from each row's first real token: a source padded on the left gets the
    positions it has alone (0 at its first word), so its translation does not depend on its
    batch. `start`: the position of the first token when decoding one step at a time."""

    def __init__(self, vocab_size, d_model, positions, max_len, dropout, padding_idx):
        self.d_model, self.max_len, self.padding_idx = d_model, max_len, padding_idx
        self.tokens = nn.Embedding(vocab_size, d_model, padding_idx=padding_idx)
        self.tokens.weight.data = self.tokens.weight.data / math.sqrt(d_model)  # pad row stays 0
        self.positions = (SinusoidalPositions(d_model, max_len) if positions == "sinusoidal"
                          else LearnedPositions(max_len, d_model))
        self.dropout = nn.Dropout(dropout)

    def forward(self, ids, start=0):
        with scope("embedding"):
            embedded = self.tokens(ids) * math.sqrt(self.d_model)      # (B, T, d)
        where = start + positions_of(ids, self.padding_idx)             # (B, T)
        if where.size and where.max() >= self.max_len:
            raise ValueError(f"Transformer: position {where.max()} goes beyond max_len "
                             f"{self.max_len} (positions 0 ... {self.max_len - 1}): this model "
                             f"takes at most {self.max_len} tokens")
        with scope("positions"):
            if isinstance(self.positions, SinusoidalPositions):         # a table, no parameters
                x = embedded + Tensor(self.positions.pe[where].astype(embedded.dtype),
                                      name="positions")
            else:
                x = embedded + self.positions.embedding(where)          # (B, T, d)
        return self.dropout(x)


def checked_ids(ids, name):
    """ids as an array of shape (B, T), T >= 1, or a one-line error naming them."""
    ids = np.asarray(getattr(ids, "data", ids))
    if ids.ndim != 2 or ids.shape[1] == 0:
        raise ValueError(f"Transformer: expected {name} ids of shape (B, T) with T >= 1, got "
                         f"shape {ids.shape}")
    return ids


def positions_of(ids, padding_idx):
    """(B, T) ids -> (B, T) positions: 0 at each row's first token that is not padding, then
    1, 2, ...; the left padding before it gets 0 too (it is masked out of every attention)."""
    ids = np.asarray(ids)
    first = np.argmax(ids != padding_idx, axis=-1)[:, None]             # (B, 1)
    return np.maximum(np.arange(ids.shape[-1]) - first, 0)              # (B, T)


class Encoder(nn.Module):
    """src (B, S) ids -> memory (B, S, d): the embedding, then the blocks, each in its scope
    ("layer 0", "layer 1", ...), and for pre-norm a final LayerNorm (scope "final norm")."""

    def __init__(self, vocab_size, d_model, heads, layers, d_ff, dropout, norm, positions,
                 max_len, padding_idx, block=None):
        self.padding_idx = padding_idx
        self.embedding = Embedding(vocab_size, d_model, positions, max_len, dropout, padding_idx)
        if block is not None:           # a class of the user's: checked on a tiny batch first
            check_block(block, norm_first=(norm == "pre"), d_model=d_model, heads=heads,
                        d_ff=d_ff)
        self.layers = nn.ModuleList(named_blocks(block or EncoderBlock, layers, d_model, heads,
                                                 d_ff, dropout, norm))
        self.norm = nn.LayerNorm(d_model) if norm == "pre" else None

    def forward(self, src):
        real = np.asarray(src) != self.padding_idx                      # (B, S): False at padding
        x = self.embedding(src)                                         # (B, S, d)
        for block in self.layers:
            y = block(x, mask=real[:, None, :])                         # (B, S, d)
            if getattr(y, "shape", None) != x.shape:                    # a block of the user's
                raise BlockContractError(message("block.in_model", name=type(block).__name__,
                                                 found=getattr(y, "shape", type(y).__name__),
                                                 shape=x.shape))
            x = y
        if self.norm is not None:
            with scope("final norm"):
                x = self.norm(x)                                        # (B, S, d)
        return x


class Decoder(nn.Module):
    """Teacher forcing: forward(tgt_in (B, T), memory (B, S, d), src_mask (B, S)) -> logits
    (B, T, V), weights (B, T, S). One token: step(token (B,), state, memory, src_mask) -> logits
    (B, V), new state, weights (B, S). The state is the layers' kept keys and values (see the
    module docstring); `initial_state` gives the empty one."""

    uses_attention = True

    def __init__(self, vocab_size, d_model, heads, layers, d_ff, dropout, norm, positions,
                 max_len, padding_idx):
        self.embedding = Embedding(vocab_size, d_model, positions, max_len, dropout, padding_idx)
        self.layers = nn.ModuleList(named_blocks(DecoderBlock, layers, d_model, heads, d_ff,
                                                 dropout, norm))
        self.norm = nn.LayerNorm(d_model) if norm == "pre" else None
        self.out = nn.Linear(d_model, vocab_size)
        self.cross_weights = self.self_weights = None

    def forward(self, tgt_in, memory, src_mask=None, state=None):
        """tgt_in (B, T) -> logits (B, T, V), weights (B, T, S). With `state` (kept keys and
        values), tgt_in holds the next tokens only: returns also the state that keeps them."""
        caches = None if state is None else caches_from(state)
        start = 0 if caches is None else len(caches[0])
        memory_mask = None if src_mask is None else np.asarray(src_mask)[:, None, :]   # (B, 1, S)
        x = self.embedding(checked_ids(tgt_in, "tgt_in"), start=start)  # (B, T, d)
        for i, block in enumerate(self.layers):
            x = block(x, memory, memory_mask=memory_mask,
                      cache=None if caches is None else caches[i])      # (B, T, d)
        if self.norm is not None:
            with scope("final norm"):
                x = self.norm(x)                                        # (B, T, d)
        with scope("output"):
            logits = self.out(x)                                        # (B, T, V)
        self.cross_weights = [block.multihead_attn.head_weights for block in self.layers]
        self.self_weights = [block.self_attn.head_weights for block in self.layers]
        weights = Tensor(self.layers[-1].multihead_attn.weights)        # (B, T, S), head mean
        if caches is None:
            return logits, weights
        return logits, weights, state_from(caches)

    def step(self, token, state, memory, src_mask=None, named=None):
        """One token per sentence.  token (B,) -> logits (B, V), new state, weights (B, S)
        `named`, a dict if given, receives the logits and the last layer's cross-attention
        weights of every head, (B, H, S)."""
        logits, weights, state = self(np.asarray(token)[:, None], memory, src_mask, state)
        if named is not None:
            named.update({"attention weights": self.cross_weights[-1][:, :, 0],
                          "logits": logits[:, 0]})
        return logits[:, 0], state, weights[:, 0]                        # (B, V), .., (B, S)

    def initial_state(self, batch, dtype):
        """Nothing kept yet: each layer's keys and values (B, H, 0, d / H)."""
        shape = [(batch, b.self_attn.num_heads, 0, b.self_attn.head_dim) for b in self.layers]
        return tuple(Tensor(np.zeros(s, dtype=dtype)) for s in shape for _ in "kv")


def named_blocks(block, layers, d_model, heads, d_ff, dropout, norm):
    """`layers` blocks, scoped "layer 0", "layer 1", ... (a drawing folds each): numbered from 0
    as their parameters are (`encoder.layers.0.`), and as PyTorch numbers them, heads too."""
    blocks = [block(d_model, heads, d_ff, dropout, norm_first=(norm == "pre"))
              for _ in range(layers)]
    for i, b in enumerate(blocks):
        b.scope_name = f"layer {i}"
    return blocks


def caches_from(state):
    """The decoder state (k_1, v_1, k_2, v_2, ...) as one KeyValueCache per layer."""
    caches = []
    for keys, values in zip(state[0::2], state[1::2]):
        cache = KeyValueCache()
        cache.keys, cache.values = keys, values                         # (B, H, t, d / H)
        caches.append(cache)
    return caches


def state_from(caches):
    """The caches back as the state: a flat tuple, whose rows beam search can pick."""
    return tuple(part for cache in caches for part in (cache.keys, cache.values))


class Transformer(nn.Module):
    """The Transformer as a translator: Seq2Seq's interface (seq2seq/models/rnn.py).

    d_model  the size of every position's vector      heads    attention heads (divide d_model)
    layers   blocks in the encoder, and in the decoder d_ff    the feed-forward's hidden size
    dropout  on the embeddings and in every block       norm     "pre" or "post"
    positions "sinusoidal" or "learned"                max_len  the most positions a sequence has

    block    the encoder's block class: None for attention.EncoderBlock, or one of your own
             (seq2seq/models/block_contract.py)

    `config` holds the settings that rebuild the model: Transformer(**model.config,
    block=model.block)."""

    def __init__(self, src_vocab_size, tgt_vocab_size, d_model=64, heads=4, layers=2, d_ff=128,
                 dropout=0.0, norm="pre", positions="sinusoidal", max_len=256, padding_idx=0,
                 block=None):
        nn.module.check_sizes("Transformer", src_vocab_size=src_vocab_size,
                              tgt_vocab_size=tgt_vocab_size, d_model=d_model, heads=heads,
                              layers=layers, d_ff=d_ff, max_len=max_len)
        if d_model % heads:
            raise ValueError(f"Transformer: heads {heads} does not divide d_model {d_model}")
        if isinstance(padding_idx, bool) or not isinstance(padding_idx, (int, np.integer)) or not (
                0 <= padding_idx < min(src_vocab_size, tgt_vocab_size)):   # -1 would mask nothing
            raise ValueError(f"Transformer: padding_idx must be an id of both vocabularies, 0 ... "
                             f"{min(src_vocab_size, tgt_vocab_size) - 1}, not {padding_idx!r}")
        if norm not in NORMS:
            raise ValueError(f"Transformer: norm must be one of {NORMS}, not {norm!r}")
        if positions not in POSITIONS:
            raise ValueError(f"Transformer: positions must be one of {POSITIONS}, not "
                             f"{positions!r}")
        self.config = dict(src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size,
                           d_model=d_model, heads=heads, layers=layers, d_ff=d_ff,
                           dropout=dropout, norm=norm, positions=positions, max_len=max_len,
                           padding_idx=padding_idx)
        self.padding_idx, self.max_len, self.block = padding_idx, max_len, block
        sizes = (d_model, heads, layers, d_ff, dropout, norm, positions, max_len, padding_idx)
        self.encoder = Encoder(src_vocab_size, *sizes, block=block)
        self.decoder = Decoder(tgt_vocab_size, *sizes)

    def set_dropout(self, p):
        """Every dropout of the model (embeddings and blocks) to probability p, and config with
        it: a resumed run may train on with another --dropout."""
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p < 1:
            raise ValueError(f"Transformer: dropout must be a number in [0, 1), not {p!r}")
        for module in self.modules():
            if isinstance(module, nn.Dropout):
                module.p = p
        self.config["dropout"] = p

    def encode(self, src):
        """src (B, S) ids -> memory (B, S, d), the decoder's first state (nothing kept),
        source mask (B, S)"""
        src = checked_ids(src, "src")
        with scope("encoder"):
            memory = self.encoder(src)                                  # (B, S, d)
        return memory, self.decoder.initial_state(len(src), memory.dtype), src != self.padding_idx

    def forward(self, src, tgt_in, teacher_forcing_ratio=1.0, rng=None):
        """src (B, S), tgt_in (B, T) starting with <bos> -> logits (B, T, V), weights (B, T, S)
        Every target position at once, under the causal mask (teacher forcing); with
        teacher_forcing_ratio < 1, one step at a time, as Seq2Seq does."""
        memory, state, src_mask = self.encode(src)
        tgt_in = np.asarray(tgt_in)
        if teacher_forcing_ratio >= 1:
            with scope("decoder"):
                return self.decoder(tgt_in, memory, src_mask)
        rng = np.random.default_rng() if rng is None else rng
        return run_steps(self.decoder, tgt_in, state, memory, src_mask, teacher_forcing_ratio,
                         rng)

    def loss(self, src, tgt, teacher_forcing_ratio=1.0, rng=None, label_smoothing=0.0):
        """Mean cross-entropy of the next token, as Seq2Seq.loss; label_smoothing as
        F.cross_entropy's (the paper's 0.1)."""
        tgt = np.asarray(tgt)
        logits, _ = self(src, tgt[:, :-1], teacher_forcing_ratio, rng)  # (B, T, V)
        return F.cross_entropy(logits, tgt[:, 1:], ignore_index=self.padding_idx,
                               label_smoothing=label_smoothing)
