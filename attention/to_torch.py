"""The Transformer blocks copied into PyTorch, to check them against it (and for a student's next
step): an EncoderBlock becomes a torch.nn.TransformerEncoderLayer, a DecoderBlock a
torch.nn.TransformerDecoderLayer (batch_first=True, the same norm order, dropout, activation and
eps, in the block's dtype), with the same weights: the parameter names are the same.

    theirs = encoder_block_to_torch(block)
    theirs(x, src_key_padding_mask=torch.from_numpy(~mask[:, 0]))      # mask: padding_mask(...)

PyTorch's boolean masks mean the opposite of ours: True = may NOT attend. `torch_masks`
converts ours. PyTorch is imported inside the functions: `attention` itself never needs it.
"""

import numpy as np

from attention.blocks import ACTIVATIONS
from attention.masks import causal_mask


def encoder_block_to_torch(block):
    """A torch.nn.TransformerEncoderLayer computing what `block` (an EncoderBlock) computes."""
    _check_activation(block)                    # what cannot be copied is said without PyTorch
    import torch
    theirs = torch.nn.TransformerEncoderLayer(batch_first=True, **_settings(block, torch))
    return _loaded(theirs, block, torch)


def decoder_block_to_torch(block):
    """A torch.nn.TransformerDecoderLayer computing what `block` (a DecoderBlock) computes. Call
    it with tgt_mask = the causal mask, which PyTorch does not build itself (see torch_masks)."""
    _check_activation(block)
    import torch
    theirs = torch.nn.TransformerDecoderLayer(batch_first=True, **_settings(block, torch))
    return _loaded(theirs, block, torch)


def torch_masks(padding=None, causal_length=None, memory_padding=None):
    """Our masks as the keyword arguments of PyTorch's layers, where True = may NOT attend:

    padding (B, 1, T)         -> src_key_padding_mask (B, T) (an encoder layer's self-attention)
                                 or tgt_key_padding_mask, if causal_length is given (a decoder's)
    causal_length T           -> tgt_mask (T, T), True above the diagonal
    memory_padding (B, 1, S)  -> memory_key_padding_mask (B, S)
    """
    import torch
    masks = {}
    if causal_length is not None:
        masks["tgt_mask"] = torch.from_numpy(~causal_mask(causal_length))
    if padding is not None:
        key = "src_key_padding_mask" if causal_length is None else "tgt_key_padding_mask"
        masks[key] = torch.from_numpy(~_keys(padding))
    if memory_padding is not None:
        masks["memory_key_padding_mask"] = torch.from_numpy(~_keys(memory_padding))
    return masks


def _keys(mask):
    """A padding mask (B, 1, T) as (B, T)."""
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim != 3 or mask.shape[1] != 1:
        raise ValueError(f"torch_masks: a padding mask is (B, 1, T), got shape {mask.shape}")
    return mask[:, 0]


def _check_activation(block):
    """The name of the block's activation in ACTIVATIONS; a function of one's own has none."""
    names = {id(function): name for name, function in ACTIVATIONS.items()}
    activation = names.get(id(block.activation))
    if activation is None:
        raise ValueError(f"{type(block).__name__} to PyTorch: only a named activation "
                         f"({sorted(ACTIVATIONS)}) has a PyTorch counterpart")
    return activation


def _settings(block, torch):
    attention = block.self_attn
    activation = _check_activation(block)
    dtype = torch.from_numpy(attention.in_proj_weight.data).dtype
    return dict(d_model=attention.embed_dim, nhead=attention.num_heads,
                dim_feedforward=block.linear1.out_features, dropout=block.dropout.p,
                activation=activation, layer_norm_eps=block.norm1.eps,
                norm_first=block.norm_first, dtype=dtype)


def _loaded(theirs, block, torch):
    ours = block.state_dict()
    theirs.load_state_dict({name: torch.from_numpy(array) for name, array in ours.items()})
    return theirs
