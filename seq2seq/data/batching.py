"""From text pairs to padded id arrays.

Sources are padded on the LEFT: the encoder's last state is then the state right after the last
real token, the one the decoder starts from. The encoder's LSTM skips the padding (its mask
leaves the state unchanged there), so a padded sentence is encoded exactly as it is alone.
Targets are padded on the right and framed as <bos> y_1 .. y_n <eos>; the decoder reads all but
the last column and is scored on all but the first.

    source "ab", "abcd"   ->  [[pad, pad, a, b], [a, b, c, d]]
    target "xy"           ->  [[bos, x, y, eos, pad, ...]]
"""

import numpy as np

from seq2seq.data.vocab import tokenize


def encode_source(text, vocab, level, reverse_input=False):
    """One source sentence -> a list of ids (reversed when `reverse_input`, as in the book's
    date model: the first source tokens then sit close to the first target tokens)."""
    ids = vocab.encode(tokenize(text, level))
    return ids[::-1] if reverse_input else ids


def encode_target(text, vocab, level):
    """One target sentence -> <bos> ids <eos>."""
    return vocab.encode(tokenize(text, level), bos=True, eos=True)


def pad_sources(id_lists, pad_id):
    """Left-pad to the longest: (B, S) int64."""
    width = max(len(ids) for ids in id_lists)
    out = np.full((len(id_lists), width), pad_id, dtype=np.int64)
    for row, ids in enumerate(id_lists):
        if ids:
            out[row, width - len(ids):] = ids
    return out


def pad_targets(id_lists, pad_id):
    """Right-pad to the longest: (B, T) int64."""
    width = max(len(ids) for ids in id_lists)
    out = np.full((len(id_lists), width), pad_id, dtype=np.int64)
    for row, ids in enumerate(id_lists):
        out[row, :len(ids)] = ids
    return out


def batches(examples, batch_size, pad_id, rng=None):
    """Yield (src (B, S), tgt (B, T)) arrays from a list of (source ids, target ids) pairs,
    in a shuffled order when `rng` is given."""
    order = np.arange(len(examples)) if rng is None else rng.permutation(len(examples))
    for start in range(0, len(order), batch_size):
        chosen = [examples[i] for i in order[start:start + batch_size]]
        yield (pad_sources([src for src, _ in chosen], pad_id),
               pad_targets([tgt for _, tgt in chosen], pad_id))
