"""A trained model's weights copied into torch.nn modules, for the step after minigrad: PyTorch.

    from seq2seq.to_torch import to_torch, torch_forward
    theirs = to_torch(model)                           # torch.nn modules, the model's dtype
    logits, weights = torch_forward(theirs, src, tgt_in)   # == model(src, tgt_in), to ~1e-12

`to_torch` builds torch.nn.Embedding, torch.nn.LSTM and torch.nn.Linear modules, under our
parameter names (`encoder.rnn.weight_ih_l0`, `decoder.out.bias`, ...), so the state dict copies
across by name; `torch_forward` runs them as `Seq2Seq.forward` runs ours (teacher forcing). What
changes on the way, and why:

- Layout: our LSTM is batch-first by default, torch.nn.LSTM is not; here it is made with
  batch_first=True. A bidirectional encoder's two LSTMs become one torch.nn.LSTM with
  bidirectional=True (our `encoder.rnn_reverse.X` is its `encoder.rnn.X_reverse`); torch
  concatenates the two directions' outputs, ours adds them: the halves are added.
- Padding: our encoder's LSTM takes a mask and keeps its state at padded steps; torch.nn.LSTM has
  no mask and would run the cell over the padding. The source is padded on the left: each row is
  rotated so that its tokens come first, packed (pack_padded_sequence runs each sentence over its
  own tokens only), and the outputs rotated back. At padded positions torch gives zeros, where our
  bidirectional encoder has the right-to-left state; attention never looks there.
- Masks: ours are True where attention may look; torch's masked_fill (and nn.MultiheadAttention's
  masks) are True where it may NOT: the mask is inverted, `~mask`.
- Attention: the dot, general (Luong) and additive (Bahdanau) scores have no torch.nn module; they
  are the same few lines in torch ops, with our W, U, v as torch.nn.Linear.
`multihead_attention_to_torch` does the same for attention.MultiHeadAttention, whose parameters
have torch.nn.MultiheadAttention's names already; `torch_attention_masks` converts its mask.

A Transformer (seq2seq/models/transformer.py) becomes torch.nn.Embedding for the tokens (and the
learned positions; sinusoidal ones are a table, a buffer here), torch.nn.TransformerEncoderLayer
and TransformerDecoderLayer (batch_first=True, the same norm order: attention.to_torch), the
final torch.nn.LayerNorm of a pre-norm stack and the output torch.nn.Linear, under our names
(`decoder.layers.0.multihead_attn.in_proj_weight`, ...). `torch_forward` runs it as
`Transformer.forward` runs ours: positions counted from each row's first real token, the source's
padding as key_padding_masks, the causal mask built here (torch's layers do not build it). The
layers keep no attention weights: the weights it returns are None.

PyTorch is imported inside the functions: `seq2seq` itself never needs it.
"""

import math

import numpy as np

from seq2seq.models.transformer import Transformer


def to_torch(model):
    """torch.nn modules holding a copy of the weights of `model` (a seq2seq.models.rnn.Seq2Seq, or
    a Transformer), in its dtype, in eval mode: a torch.nn.ModuleDict {"encoder", "decoder"},
    with the model's settings in `.config`. Run it with `torch_forward`. Only a model of LSTMs
    converts (another recurrent layer, `rnn`, is a class of the user's, which torch does not
    know)."""
    from minigrad.nn import LSTM
    if isinstance(model, Transformer):
        return _loaded(_transformer_modules(model), model)
    if model.rnn not in (None, LSTM):
        raise ValueError(f"to_torch converts a model of LSTMs; this one's recurrent layer is "
                         f"{model.rnn.__name__}")
    from torch import nn
    c = model.config
    E, H, pad, scoring = c["embed_size"], c["hidden_size"], c["padding_idx"], c["attention"]
    encoder = nn.ModuleDict({
        "embedding": nn.Embedding(c["src_vocab_size"], E, padding_idx=pad),
        "rnn": nn.LSTM(E, H, batch_first=True, bidirectional=c["bidirectional"])})
    lstm_input = E + H if scoring is not None and c["wiring"] == "bahdanau" else E
    decoder = nn.ModuleDict({
        "embedding": nn.Embedding(c["tgt_vocab_size"], E, padding_idx=pad),
        "rnn": nn.LSTM(lstm_input, H, batch_first=True),
        "out": nn.Linear(H if scoring is None else 2 * H, c["tgt_vocab_size"])})
    if scoring == "general":                                    # q . (W k)
        decoder["attention"] = nn.ModuleDict({"W": nn.Linear(H, H, bias=False)})
    elif scoring == "additive":                                 # v . tanh(W q + U k)
        decoder["attention"] = nn.ModuleDict({"W": nn.Linear(H, H, bias=False),
                                              "U": nn.Linear(H, H, bias=False),
                                              "v": nn.Linear(H, 1, bias=False)})
    return _loaded(nn.ModuleDict({"encoder": encoder, "decoder": decoder}), model)


def _loaded(theirs, model):
    """`theirs` with the model's settings, dtype and weights (strict: every name matches)."""
    import torch
    theirs.config = dict(model.config)
    ours = model.state_dict()
    theirs.to(torch.from_numpy(next(iter(ours.values()))).dtype)
    theirs.load_state_dict({_torch_name(name): torch.from_numpy(array)
                            for name, array in ours.items()})
    return theirs.eval()


def _transformer_modules(model):
    """The Transformer's parts as torch.nn modules, under our names (weights not yet copied)."""
    import torch
    from torch import nn

    from attention.to_torch import decoder_block_to_torch, encoder_block_to_torch
    c = model.config
    parts = {}
    for side, vocab, to_layer in (("encoder", "src_vocab_size", encoder_block_to_torch),
                                  ("decoder", "tgt_vocab_size", decoder_block_to_torch)):
        ours = getattr(model, side)
        embedding = nn.ModuleDict({"tokens": nn.Embedding(c[vocab], c["d_model"],
                                                          padding_idx=c["padding_idx"])})
        if c["positions"] == "learned":
            embedding["positions"] = nn.ModuleDict({"embedding": nn.Embedding(c["max_len"],
                                                                              c["d_model"])})
        else:                                           # the sines and cosines: no weights
            pe = torch.from_numpy(ours.embedding.positions.pe)                  # (max_len, d)
            embedding.register_buffer("pe", pe, persistent=False)
        parts[side] = nn.ModuleDict({"embedding": embedding, "layers": nn.ModuleList(
            [to_layer(block) for block in ours.layers])})
        if ours.norm is not None:                       # pre-norm: one more at the end
            parts[side]["norm"] = nn.LayerNorm(c["d_model"], eps=ours.norm.eps)
    parts["decoder"]["out"] = nn.Linear(c["d_model"], c["tgt_vocab_size"])
    return nn.ModuleDict(parts)


def _torch_name(name):
    """Our parameter name -> torch's: the reverse LSTM is the second direction of one LSTM."""
    if name.startswith("encoder.rnn_reverse."):
        return "encoder.rnn." + name.split(".")[-1] + "_reverse"    # weight_ih_l0_reverse
    return name


def torch_forward(theirs, src, tgt_in):
    """What `Seq2Seq.forward(src, tgt_in)` computes (teacher forcing), in torch.
    src (B, S) ids padded on the left, tgt_in (B, T): arrays or int64 tensors
    ->  logits (B, T, V), attention weights (B, T, S) or None (no attention)"""
    import torch
    src, tgt_in = torch.as_tensor(np.asarray(src)), torch.as_tensor(np.asarray(tgt_in))
    mask = src != theirs.config["padding_idx"]              # (B, S), ours: True = a real token
    _check_left_padded(mask.numpy())
    if "d_model" in theirs.config:                          # a Transformer
        return _transformer_forward(theirs, src, tgt_in, mask), None
    enc_outputs, state = _encode(theirs.encoder, src, mask)
    return _decode(theirs.decoder, theirs.config, tgt_in, state, enc_outputs, mask)


def _transformer_forward(theirs, src, tgt_in, mask):
    """Transformer.forward(src, tgt_in) in torch's layers -> logits (B, T, V)"""
    import torch
    pad, T = theirs.config["padding_idx"], tgt_in.shape[1]
    memory = _embed(theirs.encoder.embedding, src, pad)                     # (B, S, d)
    for layer in theirs.encoder.layers:
        memory = layer(memory, src_key_padding_mask=~mask)  # torch: True = may NOT attend
    if "norm" in theirs.encoder:
        memory = theirs.encoder.norm(memory)                                # (B, S, d)
    later = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)             # (T, T) no peeking
    x = _embed(theirs.decoder.embedding, tgt_in, pad)                       # (B, T, d)
    for layer in theirs.decoder.layers:
        x = layer(x, memory, tgt_mask=later, memory_key_padding_mask=~mask)
    if "norm" in theirs.decoder:
        x = theirs.decoder.norm(x)                                          # (B, T, d)
    return theirs.decoder.out(x)                                            # (B, T, V)


def _embed(embedding, ids, pad):
    """ids (B, T) -> tokens * sqrt(d) + positions counted from each row's first real token"""
    import torch
    tokens = embedding.tokens
    first = (ids != pad).int().argmax(dim=-1, keepdim=True)                 # (B, 1)
    where = (torch.arange(ids.shape[1]) - first).clamp(min=0)               # (B, T)
    table = (embedding.positions.embedding.weight if "positions" in embedding
             else embedding.pe.to(tokens.weight.dtype))
    return tokens(ids) * math.sqrt(tokens.embedding_dim) + table[where]     # (B, T, d)


def _check_left_padded(mask):
    """Packing below reads each row as pads, then tokens: a row padded on the right, or with a
    pad between tokens, would be run over the wrong positions without any error from torch."""
    if mask.ndim != 2:
        raise ValueError(f"torch_forward: src must be (batch, length) ids, got shape {mask.shape}")
    for row, real in enumerate(mask):
        if not real.any():
            raise ValueError(f"torch_forward: src row {row} is all padding: there is nothing "
                             "to encode")
        first = int(real.argmax())
        if not real[first:].all():
            gap = first + int((~real[first:]).argmax())
            raise ValueError(f"torch_forward: src row {row} has a pad at position {gap}, after "
                             "a token: pad sources on the left (seq2seq.data.batching.pad_sources)")


def _encode(encoder, src, mask):
    """src (B, S), mask (B, S) -> outputs (B, S, H), (h, c) each (1, B, H): left-to-right's"""
    import torch
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
    B, S = src.shape
    lengths = mask.sum(1)                                                   # (B,)
    positions = torch.arange(S)
    shift = (S - lengths)[:, None]                                          # (B, 1) pads first
    tokens_first = src.gather(1, (positions + shift) % S)                   # (B, S)
    packed = pack_padded_sequence(encoder.embedding(tokens_first), lengths, batch_first=True,
                                  enforce_sorted=False)
    outputs, (h, c) = encoder.rnn(packed)                                   # h, c: (D, B, H)
    outputs, _ = pad_packed_sequence(outputs, batch_first=True, total_length=S)   # (B, S, D H)
    back = ((positions - shift) % S)[..., None].expand(B, S, outputs.shape[-1])
    outputs = outputs.gather(1, back)                                       # pads first again
    if encoder.rnn.bidirectional:
        H = encoder.rnn.hidden_size
        outputs = outputs[..., :H] + outputs[..., H:]                       # (B, S, H): summed
    return outputs, (h[:1], c[:1])


def _attend(attention, scoring, queries, keys, mask):
    """queries (B, T, H), keys = values (B, S, H), mask (B, S) True = may attend
    ->  context (B, T, H), weights (B, T, S)"""
    import torch
    if scoring == "dot":
        scores = queries @ keys.transpose(1, 2)                             # (B, T, S)
    elif scoring == "general":
        scores = queries @ attention.W(keys).transpose(1, 2)                # (B, T, S)
    elif scoring == "uniform":                                              # equal scores
        scores = queries.new_zeros(queries.shape[0], queries.shape[1], keys.shape[1])
    else:                                                                   # additive
        features = torch.tanh(attention.W(queries)[:, :, None] + attention.U(keys)[:, None])
        scores = attention.v(features).squeeze(-1)                          # (B, T, S)
    scores = scores.masked_fill(~mask[:, None, :], float("-inf"))  # torch fills where True
    weights = torch.softmax(scores, dim=-1)                                 # (B, T, S)
    return weights @ keys, weights


def _decode(decoder, config, tgt_in, state, enc_outputs, mask):
    """The two wirings of seq2seq.models.rnn.AttentionDecoder, or the plain Decoder."""
    import torch
    x = decoder.embedding(tgt_in)                                           # (B, T, E)
    scoring, attention = config["attention"], getattr(decoder, "attention", None)
    if scoring is None:
        outputs, _ = decoder.rnn(x, state)                                  # (B, T, H)
        return decoder.out(outputs), None
    if config["wiring"] == "luong":                 # all states first, then one attention
        states, _ = decoder.rnn(x, state)                                   # (B, T, H)
        context, weights = _attend(attention, scoring, states, enc_outputs, mask)
        return decoder.out(torch.cat([context, states], dim=-1)), weights   # (B, T, V)
    logits, weights = [], []                        # bahdanau: s_{t-1} queries, step by step
    for t in range(x.shape[1]):
        query = state[0].transpose(0, 1)                                    # (B, 1, H)
        context, w = _attend(attention, scoring, query, enc_outputs, mask)  # (B, 1, H)
        h, state = decoder.rnn(torch.cat([x[:, t:t + 1], context], dim=-1), state)
        logits.append(decoder.out(torch.cat([h, context], dim=-1)))         # (B, 1, V)
        weights.append(w)                                                   # (B, 1, S)
    return torch.cat(logits, dim=1), torch.cat(weights, dim=1)


def multihead_attention_to_torch(module):
    """A torch.nn.MultiheadAttention(batch_first=True) with the weights of `module` (an
    attention.MultiHeadAttention), in its dtype. Call it with `torch_attention_masks(mask)`."""
    import torch
    ours = module.state_dict()
    theirs = torch.nn.MultiheadAttention(module.embed_dim, module.num_heads, batch_first=True,
                                         dtype=torch.from_numpy(ours["in_proj_weight"]).dtype)
    theirs.load_state_dict({name: torch.from_numpy(array) for name, array in ours.items()})
    return theirs


def torch_attention_masks(mask, num_heads):
    """Our mask (True = may attend) as torch.nn.MultiheadAttention's keyword arguments, where
    True = may NOT attend:  (B, 1, Tk) padding -> key_padding_mask (B, Tk);  (Tq, Tk) -> attn_mask;
    (B, Tq, Tk) -> attn_mask (B * num_heads, Tq, Tk), each example's mask once per head."""
    import torch
    if mask is None:
        return {}
    masked = ~np.asarray(mask, dtype=bool)
    if masked.ndim == 3 and masked.shape[1] == 1:
        return {"key_padding_mask": torch.from_numpy(masked[:, 0])}
    if masked.ndim == 3:
        masked = np.repeat(masked, num_heads, axis=0)
    return {"attn_mask": torch.from_numpy(masked)}
