"""The encoder-decoder: an LSTM reads the source, another LSTM writes the target.

Shapes: B batch, S source length, T target length, E embedding size, H hidden size, V vocabulary.

Encoder       ids (B, S) -> Embedding -> LSTM -> hidden states (B, S, H) and final state (h, c)
Decoder       starts from the encoder's final state; at each step reads the previous token and
              writes scores for the next one. The plain decoder sees the source only through
              that one fixed-size state.
AttentionDecoder  also looks back at every encoder hidden state at every step, through an
              attention module (query = decoder state, keys = values = encoder states), in one
              of the two classic wirings:
  "luong"     the LSTM runs first; its new state s_t queries the encoder; [c_t; s_t] feeds the
              output layer. Under teacher forcing the LSTM runs over all steps first and the
              attention for all steps is one batched matmul: this is what makes it fast.
  "bahdanau"  the previous state s_{t-1} queries the encoder; the context c_t goes into the LSTM
              with the previous token; [s_t; c_t] feeds the output layer. Step by step only.

Source batches are padded on the left (see `seq2seq.batching`); the encoder's LSTMs skip padded
positions (their state passes through unchanged), so the encoder's last state is the state after
the last real token, the same as for the sentence alone; padded positions get no attention (the
mask), padded target positions no loss (ignore_index).
"""

import numpy as np

import minigrad.functional as F
from minigrad import nn, scope
import attention as attn

SCORINGS = ("dot", "general", "additive", "uniform")     # uniform: a baseline
WIRINGS = ("luong", "bahdanau")


class Encoder(nn.Module):
    """Embedding -> LSTM.   src (B, S) ids  ->  outputs (B, S, H), final state ((B, H), (B, H))

    A left-to-right LSTM's state at word j has read words 1..j only. With `bidirectional=True`
    a second LSTM reads right to left, and the encoder's output at word j is the sum of both
    states: word j with context from either side, as in the attention paper's encoder (which
    concatenates them; the sum keeps the size H, so a dot product with the decoder's state still
    works). The decoder starts from the left-to-right LSTM's final state.

    Padding never runs through the LSTMs: they take the mask `src != padding_idx`, and a padded
    step leaves the state unchanged. With the source padded on the left, the state is still the
    initial zeros when the first real word arrives, so a sentence is encoded exactly as it would
    be alone: its translation does not depend on what else is in the batch.
    """

    def __init__(self, vocab_size, embed_size, hidden_size, padding_idx=0, fused=True,
                 bidirectional=False):
        self.bidirectional, self.padding_idx = bidirectional, padding_idx
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=padding_idx)
        self.lstm = nn.LSTM(embed_size, hidden_size, batch_first=True, fused=fused)
        if bidirectional:
            self.lstm_reverse = nn.LSTM(embed_size, hidden_size, batch_first=True, fused=fused)

    def forward(self, src):
        x = self.embedding(src)                         # (B, S, E)
        real = np.asarray(src) != self.padding_idx      # (B, S): False at padding
        if not self.bidirectional:
            return self.lstm(x, mask=real)              # (B, S, H), ((B, H), (B, H))
        with scope("left to right"):                    # (a drawing folds each direction)
            outputs, state = self.lstm(x, mask=real)    # (B, S, H), ((B, H), (B, H))
        with scope("right to left"):                    # last word first, padding last
            right_to_left, _ = self.lstm_reverse(x[:, ::-1], mask=real[:, ::-1])   # (B, S, H)
        outputs = outputs + right_to_left[:, ::-1]                # (B, S, H)
        return outputs, state


class Decoder(nn.Module):
    """The plain decoder: Embedding -> LSTM (from the encoder's final state) -> Linear.
    It never looks at the encoder's outputs: the whole source must fit in the state (h, c)."""

    uses_attention = False

    def __init__(self, vocab_size, embed_size, hidden_size, padding_idx=0, fused=True):
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=padding_idx)
        self.lstm = nn.LSTM(embed_size, hidden_size, batch_first=True, fused=fused)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, tgt_in, state, enc_outputs=None, src_mask=None):
        """Teacher forcing, all steps at once.  tgt_in (B, T) -> logits (B, T, V), weights None"""
        x = self.embedding(tgt_in)                      # (B, T, E)
        outputs, _ = self.lstm(x, state)                # (B, T, H)
        return self.out(outputs), None                  # (B, T, V)

    def step(self, token, state, enc_outputs=None, src_mask=None, named=None):
        """One step.  token (B,) ids -> logits (B, V), new state, weights None
        Each part runs in its own `minigrad.scope` (what `seq2seq draw` folds or frames); `named`,
        a dict if given, receives the step's tensors by name: embedding, h, c, logits."""
        with scope("embedding"):
            x = self.embedding(token)                   # (B, E)
        with scope("decoder lstm"):
            h, c = self.lstm.cell(x, state)             # (B, H) each
        with scope("output"):
            logits = self.out(h)                        # (B, V)
        if named is not None:
            named.update(embedding=x, h=h, c=c, logits=logits)
        return logits, (h, c), None


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
    docstring for the two wirings). Returns logits and the attention weights (B, T, S)."""

    uses_attention = True

    def __init__(self, vocab_size, embed_size, hidden_size, scoring="dot", wiring="luong",
                 padding_idx=0, fused=True):
        if wiring not in WIRINGS:
            raise ValueError(f"wiring must be one of {WIRINGS}, not {wiring!r}")
        self.wiring = wiring
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=padding_idx)
        lstm_input = embed_size if wiring == "luong" else embed_size + hidden_size
        self.lstm = nn.LSTM(lstm_input, hidden_size, batch_first=True, fused=fused)
        self.attention = make_attention(scoring, hidden_size)
        self.out = nn.Linear(2 * hidden_size, vocab_size)

    def forward(self, tgt_in, state, enc_outputs, src_mask=None):
        """Teacher forcing.  tgt_in (B, T) -> logits (B, T, V), weights (B, T, S)"""
        if self.wiring == "bahdanau":                   # each step needs the previous state
            return run_steps(self, tgt_in, state, enc_outputs, src_mask)
        x = self.embedding(tgt_in)                      # (B, T, E)
        states, _ = self.lstm(x, state)                 # (B, T, H): s_1 .. s_T
        mask = None if src_mask is None else src_mask[:, None, :]             # (B, 1, S)
        context, weights = self.attention(states, enc_outputs, enc_outputs, mask)  # (B, T, H)
        logits = self.out(F.concat([context, states], axis=-1))               # (B, T, V)
        return logits, weights

    def step(self, token, state, enc_outputs, src_mask=None, named=None):
        """One step.  token (B,) -> logits (B, V), new state, weights (B, S)
        Each part runs in its own `minigrad.scope` (what `seq2seq draw` folds or frames); `named`,
        a dict if given, receives the step's tensors by name: embedding, h, c, context,
        attention weights (the (B, 1, S) the context is mixed from), logits."""
        with scope("embedding"):
            x = self.embedding(token)                   # (B, E)
        if self.wiring == "luong":
            with scope("decoder lstm"):
                h, c = self.lstm.cell(x, state)         # s_t, (B, H)
            with scope("attention"):
                context, mixed = self.attend(h, enc_outputs, src_mask)   # (B, H), (B, 1, S)
            with scope("output"):
                logits = self.out(F.concat([context, h], axis=-1))              # (B, V)
        else:
            with scope("attention"):                    # s_{t-1} queries the encoder
                context, mixed = self.attend(state[0], enc_outputs, src_mask)   # (B, H)
            with scope("decoder lstm"):
                h, c = self.lstm.cell(F.concat([x, context], axis=-1), state)   # (B, H)
            with scope("output"):
                logits = self.out(F.concat([h, context], axis=-1))              # (B, V)
        if named is not None:
            named.update({"embedding": x, "h": h, "c": c, "context": context,
                          "attention weights": mixed, "logits": logits})
        return logits, (h, c), mixed.squeeze(-2)                                # weights (B, S)

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


class Seq2Seq(nn.Module):
    """Encoder + decoder. `attention` is "dot", "general", "additive", "uniform"
    (weights frozen to 1/S, a baseline) or None (the plain model);
    `bidirectional` gives the encoder a second, right-to-left LSTM."""

    def __init__(self, src_vocab_size, tgt_vocab_size, embed_size=16, hidden_size=256,
                 attention="dot", wiring="luong", padding_idx=0, fused=True,
                 bidirectional=False):
        self.config = dict(src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size,
                           embed_size=embed_size, hidden_size=hidden_size, attention=attention,
                           wiring=wiring, padding_idx=padding_idx, fused=fused,
                           bidirectional=bidirectional)
        self.padding_idx = padding_idx
        self.encoder = Encoder(src_vocab_size, embed_size, hidden_size, padding_idx, fused,
                               bidirectional)
        if attention is None:
            self.decoder = Decoder(tgt_vocab_size, embed_size, hidden_size, padding_idx, fused)
        else:
            self.decoder = AttentionDecoder(tgt_vocab_size, embed_size, hidden_size, attention,
                                            wiring, padding_idx, fused)

    def encode(self, src):
        """src (B, S) ids -> encoder outputs (B, S, H), final state, source mask (B, S)"""
        src = np.asarray(src)
        with scope("encoder"):                          # one box in `seq2seq draw`
            enc_outputs, state = self.encoder(src)
        return enc_outputs, state, src != self.padding_idx

    def forward(self, src, tgt_in, teacher_forcing_ratio=1.0, rng=None):
        """src (B, S), tgt_in (B, T) starting with <bos>  ->  logits (B, T, V), weights or None"""
        enc_outputs, state, src_mask = self.encode(src)
        tgt_in = np.asarray(tgt_in)
        if teacher_forcing_ratio >= 1:
            return self.decoder(tgt_in, state, enc_outputs, src_mask)
        rng = np.random.default_rng() if rng is None else rng
        return run_steps(self.decoder, tgt_in, state, enc_outputs, src_mask,
                         teacher_forcing_ratio, rng)

    def loss(self, src, tgt, teacher_forcing_ratio=1.0, rng=None):
        """Mean cross-entropy of the next token. tgt (B, T+1) = <bos> y_1 .. y_T <eos> <pad>..
        The decoder reads tgt[:, :-1] and is scored on tgt[:, 1:]; padding counts for nothing."""
        tgt = np.asarray(tgt)
        logits, _ = self(src, tgt[:, :-1], teacher_forcing_ratio, rng)      # (B, T, V)
        return F.cross_entropy(logits, tgt[:, 1:], ignore_index=self.padding_idx)
