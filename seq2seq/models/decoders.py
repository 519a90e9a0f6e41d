"""The decoders: each writes the target one token at a time, from the encoder's final state.

Shapes: B batch, S source length, T target length, E embedding size, H hidden size, V vocabulary.

Decoder       starts from the encoder's final state; at each step reads the previous token and
              writes scores for the next one. The plain decoder sees the source only through
              that one fixed-size state.
AttentionDecoder  also looks back at every encoder hidden state at every step, through an
              attention module (query = decoder state h, keys = values = encoder states), in
              one of the two classic wirings:
  "luong"     the recurrent layer runs first; its new state s_t queries the encoder; [c_t; s_t]
              feeds the output layer. Under teacher forcing the layer runs over all steps first
              and the attention for all steps is one batched matmul: this is what makes it fast.
  "bahdanau"  the previous state s_{t-1} queries the encoder; the context c_t goes into the
              layer with the previous token; [s_t; c_t] feeds the output layer. Step by step.

The recurrent layer is an LSTM unless `rnn` names another class that meets the contract of
`minigrad.nn.recurrent` (a GRU): a step's state is whatever that layer's state is, (h, c) or h,
and only its hidden state h is read (`hidden`).
"""

import numpy as np

import minigrad.functional as F
from minigrad import nn, scope
import attention as attn
from seq2seq.models.recurrent import checked_step, hidden, make_rnn, named_parts

SCORINGS = ("dot", "general", "additive", "uniform")     # uniform: a baseline
WIRINGS = ("luong", "bahdanau")


class Decoder(nn.Module):
    """The plain decoder: Embedding -> recurrent layer (from the encoder's final state) -> Linear.
    It never looks at the encoder's outputs: the whole source must fit in the state ((h, c) for
    an LSTM, h for a GRU). `rnn`: the layer's class, None for nn.LSTM (`fused` is the LSTM's)."""

    uses_attention = False

    def __init__(self, vocab_size, embed_size, hidden_size, padding_idx=0, fused=True, rnn=None):
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=padding_idx)
        self.rnn = make_rnn(rnn, embed_size, hidden_size, fused)
        self.rnn_scope = f"decoder {type(self.rnn).__name__.lower()}"     # "decoder lstm"
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, tgt_in, state, enc_outputs=None, src_mask=None):
        """Teacher forcing, all steps at once.  tgt_in (B, T) -> logits (B, T, V), weights None"""
        x = self.embedding(tgt_in)                      # (B, T, E)
        outputs, _ = self.rnn(x, state)                 # (B, T, H)
        return self.out(outputs), None                  # (B, T, V)

    def step(self, token, state, enc_outputs=None, src_mask=None, named=None):
        """One step.  token (B,) ids -> logits (B, V), new state, weights None
        Each part runs in its own `minigrad.scope` (what `seq2seq draw` folds or frames; the
        layer's is `rnn_scope`); `named`, a dict if given, receives the step's tensors by name:
        embedding, the state's parts (h, c for an LSTM), logits."""
        with scope("embedding"):
            x = self.embedding(token)                   # (B, E)
        with scope(self.rnn_scope):
            new = self.rnn.cell(x, state)               # (B, H) each part
            state = checked_step(self.rnn, new, state)
        with scope("output"):
            logits = self.out(hidden(state))            # (B, V)
        if named is not None:
            named.update(embedding=x, **named_parts(self.rnn, state), logits=logits)
        return logits, state, None


def make_attention(scoring, hidden_size):
    """The attention module that scores a decoder state (H) against encoder states (H)."""
    if scoring == "dot":
        return attn.DotProductAttention()
    if scoring == "general":
        return attn.GeneralAttention(hidden_size, hidden_size)
    if scoring == "additive":
        return attn.AdditiveAttention(hidden_size, hidden_size, hidden_size)
    if scoring == "uniform":                # weights frozen to 1/S: what attention adds, tested
        return attn.UniformAttention()
    raise ValueError(f"attention must be one of {SCORINGS} or None, not {scoring!r}")


class AttentionDecoder(nn.Module):
    """A decoder that looks back at the encoder's hidden states at every step (see the module
    docstring for the two wirings). Returns logits and the attention weights (B, T, S).
    `rnn`: the recurrent layer's class, None for nn.LSTM (`fused` is the LSTM's)."""

    uses_attention = True

    def __init__(self, vocab_size, embed_size, hidden_size, scoring="dot", wiring="luong",
                 padding_idx=0, fused=True, rnn=None):
        if wiring not in WIRINGS:
            raise ValueError(f"wiring must be one of {WIRINGS}, not {wiring!r}")
        self.wiring = wiring
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=padding_idx)
        rnn_input = embed_size if wiring == "luong" else embed_size + hidden_size
        self.rnn = make_rnn(rnn, rnn_input, hidden_size, fused)
        self.rnn_scope = f"decoder {type(self.rnn).__name__.lower()}"     # "decoder lstm"
        self.attention = make_attention(scoring, hidden_size)
        self.out = nn.Linear(2 * hidden_size, vocab_size)

    def forward(self, tgt_in, state, enc_outputs, src_mask=None):
        """Teacher forcing.  tgt_in (B, T) -> logits (B, T, V), weights (B, T, S)"""
        if self.wiring == "bahdanau":                   # each step needs the previous state
            return run_steps(self, tgt_in, state, enc_outputs, src_mask)
        x = self.embedding(tgt_in)                      # (B, T, E)
        states, _ = self.rnn(x, state)                  # (B, T, H): s_1 .. s_T
        mask = None if src_mask is None else src_mask[:, None, :]             # (B, 1, S)
        context, weights = self.attention(states, enc_outputs, enc_outputs, mask)  # (B, T, H)
        logits = self.out(F.concat([context, states], axis=-1))               # (B, T, V)
        return logits, weights

    def step(self, token, state, enc_outputs, src_mask=None, named=None):
        """One step.  token (B,) -> logits (B, V), new state, weights (B, S)
        Each part runs in its own `minigrad.scope` (what `seq2seq draw` folds or frames; the
        layer's is `rnn_scope`); `named`, a dict if given, receives the step's tensors by name:
        embedding, the state's parts (h, c for an LSTM), context, attention weights (the
        (B, 1, S) the context is mixed from), logits."""
        with scope("embedding"):
            x = self.embedding(token)                   # (B, E)
        if self.wiring == "luong":
            with scope(self.rnn_scope):
                new = self.rnn.cell(x, state)           # s_t, (B, H) each part
                state = checked_step(self.rnn, new, state)
            h = hidden(state)                           # (B, H)
            with scope("attention"):
                context, mixed = self.attend(h, enc_outputs, src_mask)   # (B, H), (B, 1, S)
            with scope("output"):
                logits = self.out(F.concat([context, h], axis=-1))              # (B, V)
        else:
            with scope("attention"):                    # s_{t-1} queries the encoder
                context, mixed = self.attend(hidden(state), enc_outputs, src_mask)  # (B, H)
            with scope(self.rnn_scope):
                new = self.rnn.cell(F.concat([x, context], axis=-1), state)     # (B, H) each
                state = checked_step(self.rnn, new, state)
            h = hidden(state)                           # (B, H)
            with scope("output"):
                logits = self.out(F.concat([h, context], axis=-1))              # (B, V)
        if named is not None:
            named.update({"embedding": x, **named_parts(self.rnn, state), "context": context,
                          "attention weights": mixed, "logits": logits})
        return logits, state, mixed.squeeze(-2)                                 # weights (B, S)

    def attend(self, query, enc_outputs, src_mask):
        """One decoder state (B, H) against the encoder's states (B, S, H), passed to the
        attention as a one-row matrix (B, 1, H), so the weights come back as the (B, 1, S) that
        the context is mixed from.  -> context (B, H), weights (B, 1, S)"""
        mask = None if src_mask is None else src_mask[:, None, :]              # (B, 1, S)
        context, weights = self.attention(query.expand_dims(-2), enc_outputs, enc_outputs,
                                          mask)                                 # (B, 1, H)
        return context.squeeze(-2), weights


def run_steps(decoder, tgt_in, state, enc_outputs, src_mask, teacher_forcing_ratio=1.0,
              rng=None):
    """Run the decoder one step at a time over T steps. At each step the input is the correct
    previous token with probability `teacher_forcing_ratio` (1.0: always, teacher forcing), or
    else the model's own best guess from the step before (0.0: free-running, as at inference)."""
    logits_steps, weight_steps = [], []
    token = tgt_in[:, 0]                                # <bos>
    for t in range(tgt_in.shape[1]):
        logits, state, weights = decoder.step(token, state, enc_outputs, src_mask)  # (B, V)
        logits_steps.append(logits)
        weight_steps.append(weights)
        if t + 1 == tgt_in.shape[1]:
            break
        gold = tgt_in[:, t + 1]                         # (B,)
        if teacher_forcing_ratio >= 1:
            token = gold
        else:
            guess = logits.data.argmax(-1)              # (B,): the model's own best guess
            if teacher_forcing_ratio <= 0:
                token = guess
            else:
                use_gold = rng.random(len(guess)) < teacher_forcing_ratio
                token = np.where(use_gold, gold, guess)
    logits = F.stack(logits_steps, axis=1)              # (B, T, V)
    weights = None if weight_steps[0] is None else F.stack(weight_steps, axis=1)  # (B, T, S)
    return logits, weights
