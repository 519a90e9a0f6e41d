"""The encoder-decoder: a recurrent layer reads the source, another writes the target.

Shapes: B batch, S source length, T target length, E embedding size, H hidden size, V vocabulary.

Encoder       ids (B, S) -> Embedding -> recurrent layer -> hidden states (B, S, H) and its final
              state ((h, c) for an LSTM, h for a GRU)
Decoder, AttentionDecoder   in seq2seq/models/decoders.py: the plain decoder, and the one that looks
              back at every encoder hidden state through attention ("luong" or "bahdanau")
Seq2Seq       the two, and the bridge between them (seq2seq/models/recurrent.py)

The recurrent layers are LSTMs unless `rnn` names another class that meets the contract of
`minigrad.nn.recurrent`: `Seq2Seq(..., rnn=GRU)`, or `python -m seq2seq train --rnn
my_gru.py:GRU`. The encoder's final state reaches the decoder through `bridge`, part by part.

Source batches are padded on the left (see `seq2seq.data.batching`); the encoder's layers skip
padded positions (their state passes through unchanged: the contract's mask), so the encoder's last
state is the state after the last real token, the same as for the sentence alone; padded
positions get no attention (the mask), padded target positions no loss (ignore_index).
"""

import numpy as np

import minigrad.functional as F
from minigrad import nn, scope
from seq2seq.models.decoders import SCORINGS, WIRINGS, AttentionDecoder, Decoder, run_steps
from seq2seq.models.recurrent import bridge, make_rnn

# The decoders and the settings' choices live in seq2seq/models/decoders.py; they are here too,
# where the model is, so that `from seq2seq.models.rnn import ...` finds every part of it.
__all__ = ["SCORINGS", "WIRINGS", "AttentionDecoder", "Decoder", "Encoder", "Seq2Seq",
           "run_steps"]


class Encoder(nn.Module):
    """Embedding -> recurrent layer.   src (B, S) ids  ->  outputs (B, S, H), final state

    `rnn`: the layer's class, None for nn.LSTM (`fused` is the LSTM's); the final state is that
    layer's, ((B, H), (B, H)) for an LSTM's (h, c), (B, H) for a GRU's h.

    A left-to-right layer's state at word j has read words 1..j only. With `bidirectional=True`
    a second layer reads right to left, and the encoder's output at word j is the sum of both
    hidden states: word j with context from either side, as in the attention paper's encoder
    (which concatenates them; the sum keeps the size H, so a dot product with the decoder's
    state still works). The final state is the left-to-right layer's.

    Padding never runs through the layers: they take the mask `src != padding_idx`, and a padded
    step leaves the state unchanged. With the source padded on the left, the state is still the
    initial zeros when the first real word arrives, so a sentence is encoded exactly as it would
    be alone: its translation does not depend on what else is in the batch.
    """

    def __init__(self, vocab_size, embed_size, hidden_size, padding_idx=0, fused=True,
                 bidirectional=False, rnn=None):
        self.bidirectional, self.padding_idx = bidirectional, padding_idx
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=padding_idx)
        self.rnn = make_rnn(rnn, embed_size, hidden_size, fused)
        if bidirectional:
            self.rnn_reverse = make_rnn(rnn, embed_size, hidden_size, fused)

    def forward(self, src):
        x = self.embedding(src)                         # (B, S, E)
        real = np.asarray(src) != self.padding_idx      # (B, S): False at padding
        if not self.bidirectional:
            return self.rnn(x, mask=real)               # (B, S, H), each part (B, H)
        with scope("left to right"):                    # (a drawing folds each direction)
            outputs, state = self.rnn(x, mask=real)     # (B, S, H), each part (B, H)
        with scope("right to left"):                    # last word first, padding last
            right_to_left, _ = self.rnn_reverse(x[:, ::-1], mask=real[:, ::-1])    # (B, S, H)
        outputs = outputs + right_to_left[:, ::-1]                # (B, S, H)
        return outputs, state


class Seq2Seq(nn.Module):
    """Encoder + decoder. `attention` is "dot", "general", "additive", "uniform" (weights frozen
    to 1/S, a baseline) or None (the plain model); `bidirectional` gives the encoder a second,
    right-to-left layer; `rnn` is the recurrent layer's class for both, None for nn.LSTM (fused
    or composed, as `fused` says; another class ignores `fused`).

    `config` holds the settings that rebuild the model, `Seq2Seq(**model.config, rnn=model.rnn)`
    (the class is kept apart, as `rnn`: a checkpoint records the file it comes from instead)."""

    def __init__(self, src_vocab_size, tgt_vocab_size, embed_size=16, hidden_size=256,
                 attention="dot", wiring="luong", padding_idx=0, fused=True,
                 bidirectional=False, rnn=None):
        self.config = dict(src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size,
                           embed_size=embed_size, hidden_size=hidden_size, attention=attention,
                           wiring=wiring, padding_idx=padding_idx, fused=fused,
                           bidirectional=bidirectional)
        self.padding_idx, self.rnn = padding_idx, rnn
        self.encoder = Encoder(src_vocab_size, embed_size, hidden_size, padding_idx, fused,
                               bidirectional, rnn)
        if attention is None:
            self.decoder = Decoder(tgt_vocab_size, embed_size, hidden_size, padding_idx, fused,
                                   rnn)
        else:
            self.decoder = AttentionDecoder(tgt_vocab_size, embed_size, hidden_size, attention,
                                            wiring, padding_idx, fused, rnn)

    def encode(self, src):
        """src (B, S) ids -> encoder outputs (B, S, H), the decoder's first state (the encoder's
        final state through `bridge`), source mask (B, S)"""
        src = np.asarray(src)
        with scope("encoder"):                          # one box in `seq2seq draw`
            enc_outputs, state = self.encoder(src)
            state = bridge(state, self.encoder.rnn, self.decoder.rnn)
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

    def loss(self, src, tgt, teacher_forcing_ratio=1.0, rng=None, label_smoothing=0.0):
        """Mean cross-entropy of the next token. tgt (B, T+1) = <bos> y_1 .. y_T <eos> <pad>..
        The decoder reads tgt[:, :-1] and is scored on tgt[:, 1:]; padding counts for nothing.
        label_smoothing: F.cross_entropy's (0: the plain cross-entropy)."""
        tgt = np.asarray(tgt)
        logits, _ = self(src, tgt[:, :-1], teacher_forcing_ratio, rng)      # (B, T, V)
        return F.cross_entropy(logits, tgt[:, 1:], ignore_index=self.padding_idx,
                               label_smoothing=label_smoothing)
