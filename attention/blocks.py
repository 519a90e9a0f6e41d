"""The Transformer's encoder and decoder blocks (Vaswani et al., 2017, figure 1), built from the
project's own pieces: MultiHeadAttention, Linear, Dropout and LayerNorm.

    encoder block                           decoder block
    x = x + SelfAttention(x)                x = x + CausalSelfAttention(x)
    x = x + FeedForward(x)                  x = x + CrossAttention(x, memory)
                                            x = x + FeedForward(x)

each line with a layer norm: before the sublayer, inside the residual (pre-norm, the default
here, as in GPT-2 and nanoGPT: the residual path stays a plain sum from input to output, and
Xiong et al., 2020, train such stacks without a learning-rate warm-up), or after the sum
(post-norm, as the 2017 paper writes it: LayerNorm(x + Sublayer(x))). Both orders are written
out below, one method each. (A pre-norm stack usually ends with one more LayerNorm, applied by
the stack, not by the block.)

The layer norms are `LayerNorm(fused=True)`: one op each, whose backward is derived by hand in
minigrad/nn/fused_layer_norm.py (the same numbers as the thirteen primitive ops of the composed
version, checked against them and against PyTorch). To see and step through those steps
inside a block, set `fused = False` on its norms (the numbers stay the same):

    for module in block.modules():
        if isinstance(module, LayerNorm):
            module.fused = False

FeedForward(x) = linear2(activation(linear1(x))): two Linear layers, d_model -> dim_feedforward ->
d_model, applied to each position alone (the paper's d_ff; ReLU in the paper).

Names and layout are torch.nn.TransformerEncoderLayer's and TransformerDecoderLayer's
(batch_first=True): self_attn, multihead_attn, linear1, linear2, norm1, norm2, norm3, so a state
dict copies across (attention.to_torch). Masks are ours: True = may attend.

Scopes, for the drawings and the explorer: the block ("encoder block", or `scope_name`), each
sublayer inside it ("self-attention", "cross-attention", "feed-forward"), and inside each
attention its projections, its heads ("heads", or "head 0", "head 1", ... after
`attention.show_heads(block)`) and its output projection.
"""

import minigrad.functional as F
from minigrad import scope
from minigrad.nn import Dropout, LayerNorm, Linear, Module
from minigrad.nn.module import check_sizes
from attention.masks import causal_mask, checked_mask
from attention.messages import message
from attention.modules import MultiHeadAttention

ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu}        # F.gelu: the exact form, as PyTorch's "gelu"


class EncoderBlock(Module):
    """One layer of the encoder: self-attention, then a feed-forward network, each added to its
    input (a residual) with a layer norm, before (norm_first=True) or after (False) the sum.

    d_model  the size of every position's vector (the paper's d_model, 512)
    nhead    the number of attention heads (the paper's h, 8); d_model / nhead each
    dim_feedforward  the feed-forward network's hidden size (the paper's d_ff, 2048)
    dropout  the probability of each dropout: on the attention's and the feed-forward's outputs
             (before they are added to the residual), and on the feed-forward's hidden layer
    activation  "relu" (the paper's), "gelu" (GPT's and BERT's), or a function of a tensor

    forward(x (B, T, d_model), mask=None) -> (B, T, d_model). mask: True = may attend,
    broadcastable to (B, T, T); for padded inputs `padding_mask(...)`, shape (B, 1, T).
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, norm_first=True):
        check_sizes("EncoderBlock", d_model=d_model, nhead=nhead,
                    dim_feedforward=dim_feedforward)
        self.self_attn = MultiHeadAttention(d_model, nhead)
        self.linear1 = Linear(d_model, dim_feedforward)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model)
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, fused=True)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, fused=True)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.activation = _activation("EncoderBlock", activation)
        self.norm_first = _norm_first("EncoderBlock", norm_first)
        self.scope_name = "encoder block"           # a stack names its blocks apart

    def forward(self, x, mask=None):
        with scope(self.scope_name):
            if self.norm_first:
                return self.pre_norm(x, mask)
            return self.post_norm(x, mask)

    def pre_norm(self, x, mask):
        """x + Sublayer(LayerNorm(x)), for each sublayer."""
        with scope("self-attention"):
            x = x + self.self_attention(self.norm1(x), mask)        # (B, T, d_model)
        with scope("feed-forward"):
            x = x + self.feed_forward(self.norm2(x))                # (B, T, d_model)
        return x

    def post_norm(self, x, mask):
        """LayerNorm(x + Sublayer(x)), for each sublayer (the 2017 paper's order)."""
        with scope("self-attention"):
            x = self.norm1(x + self.self_attention(x, mask))        # (B, T, d_model)
        with scope("feed-forward"):
            x = self.norm2(x + self.feed_forward(x))                # (B, T, d_model)
        return x

    def self_attention(self, x, mask):
        """Every position attends over the whole sequence (its padding masked out)."""
        output, _ = self.self_attn(x, x, x, mask=mask)              # (B, T, d_model)
        return self.dropout1(output)

    def feed_forward(self, x):
        """linear2(dropout(activation(linear1(x)))), each position alone."""
        hidden = self.dropout(self.activation(self.linear1(x)))     # (B, T, dim_feedforward)
        return self.dropout2(self.linear2(hidden))                  # (B, T, d_model)

    def extra_repr(self):
        return _settings(self)


class DecoderBlock(Module):
    """One layer of the decoder: causal self-attention, cross-attention to the encoder's output
    (`memory`), then a feed-forward network; each added to its input with a layer norm, before
    (norm_first=True) or after (False) the sum. Settings as in EncoderBlock.

    forward(x (B, T, d_model), memory (B, S, d_model), mask=None, memory_mask=None, cache=None)
    -> (B, T, d_model)
      The self-attention is causal always: position t attends positions 0 ... t (the causal
      mask is built here). mask, if given, restricts it further (True = may attend,
      broadcastable to (B, T, T)), e.g. the targets' padding, (B, 1, T).
      memory_mask: the encoder's padding mask (B, 1, S), True at real source positions.
      cache: a KeyValueCache (attention.cache), to decode one step (or a few) at a time: x holds
      the new positions only, which attend the kept ones and themselves; the result equals the
      same rows of the block run on the whole prefix. (The cross-attention's keys and values
      come from the memory, the same at every step; the feed-forward looks at one position at
      a time: they need nothing kept.)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, norm_first=True):
        check_sizes("DecoderBlock", d_model=d_model, nhead=nhead,
                    dim_feedforward=dim_feedforward)
        self.self_attn = MultiHeadAttention(d_model, nhead)
        self.multihead_attn = MultiHeadAttention(d_model, nhead)
        self.linear1 = Linear(d_model, dim_feedforward)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model)
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, fused=True)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, fused=True)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, fused=True)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation("DecoderBlock", activation)
        self.norm_first = _norm_first("DecoderBlock", norm_first)
        self.scope_name = "decoder block"

    def forward(self, x, memory, mask=None, memory_mask=None, cache=None):
        if x.ndim < 2 or x.shape[-2] == 0:
            raise ValueError(message("blocks.decoder_x", shape=x.shape))
        kept, new = (0 if cache is None else len(cache)), x.shape[-2]
        self_mask = causal_mask(new, kept + new)                    # (T, kept + T): no peeking
        if mask is not None:                                        # e.g. the targets' padding
            mask = checked_mask(mask, (*x.shape[:-1], kept + new), "DecoderBlock")
            self_mask = self_mask & mask                            # (B, T, kept + T)
        with scope(self.scope_name):
            if self.norm_first:
                return self.pre_norm(x, memory, self_mask, memory_mask, cache)
            return self.post_norm(x, memory, self_mask, memory_mask, cache)

    def pre_norm(self, x, memory, self_mask, memory_mask, cache):
        """x + Sublayer(LayerNorm(x)), for each sublayer."""
        with scope("self-attention"):
            x = x + self.self_attention(self.norm1(x), self_mask, cache)        # (B, T, d)
        with scope("cross-attention"):
            x = x + self.cross_attention(self.norm2(x), memory, memory_mask)    # (B, T, d)
        with scope("feed-forward"):
            x = x + self.feed_forward(self.norm3(x))                            # (B, T, d)
        return x

    def post_norm(self, x, memory, self_mask, memory_mask, cache):
        """LayerNorm(x + Sublayer(x)), for each sublayer (the 2017 paper's order)."""
        with scope("self-attention"):
            x = self.norm1(x + self.self_attention(x, self_mask, cache))        # (B, T, d)
        with scope("cross-attention"):
            x = self.norm2(x + self.cross_attention(x, memory, memory_mask))   # (B, T, d)
        with scope("feed-forward"):
            x = self.norm3(x + self.feed_forward(x))                            # (B, T, d)
        return x

    def self_attention(self, x, mask, cache):
        """Each position attends itself and the positions before it (those kept in `cache`
        too), never a later one."""
        output, _ = self.self_attn(x, x, x, mask=mask, cache=cache)   # (B, T, d_model)
        return self.dropout1(output)

    def cross_attention(self, x, memory, memory_mask):
        """Each position's query looks over the encoder's output (its padding masked out)."""
        output, _ = self.multihead_attn(x, memory, memory, mask=memory_mask)   # (B, T, d_model)
        return self.dropout2(output)

    def feed_forward(self, x):
        """linear2(dropout(activation(linear1(x)))), each position alone."""
        hidden = self.dropout(self.activation(self.linear1(x)))     # (B, T, dim_feedforward)
        return self.dropout3(self.linear2(hidden))                  # (B, T, d_model)

    def extra_repr(self):
        return _settings(self)


def _activation(where, activation):
    if callable(activation):
        return activation
    if activation not in ACTIVATIONS:
        raise ValueError(message("blocks.activation", where=where, names=sorted(ACTIVATIONS),
                                 value=activation))
    return ACTIVATIONS[activation]


def _norm_first(where, norm_first):
    if not isinstance(norm_first, bool):
        raise TypeError(message("blocks.norm_first", where=where, value=norm_first))
    return norm_first


def _settings(block):
    attention = block.self_attn
    return (f"d_model={attention.embed_dim}, nhead={attention.num_heads}, "
            f"dim_feedforward={block.linear1.out_features}, dropout={block.dropout.p}, "
            f"norm_first={block.norm_first}")
