"""Writing a translation: greedy decoding and beam search. Both return the tokens and, for the
attention model, the attention weights of every output step (rows: output tokens, columns:
source positions). Both work with any recurrent layer (`minigrad.nn.recurrent`): the decoder's
state is passed along as the layer made it, one tensor or a tuple, and beam search picks the
surviving hypotheses' rows of every part."""

import numpy as np

import minigrad.functional as F
from minigrad import Tensor, no_grad
from minigrad.nn.recurrent import map_state


@no_grad()
def greedy(model, src, bos_id, eos_id, max_len=50):
    """Feed back the most likely token at every step, for a whole batch at once.

    src (B, S) ids -> (list of B id lists without <bos>/<eos>, list of B weight arrays (n, S) or
    None). Each sentence stops at its first <eos> or after its own limit: `max_len` is one int for
    all rows or B ints, one per row, so that a sentence's translation does not depend on the
    length of the others in its batch (a row at its limit is done, as if it had written <eos>)."""
    enc_outputs, state, src_mask = model.encode(src)
    batch = len(src)
    limits = np.broadcast_to(np.asarray(max_len, dtype=np.int64), (batch,))         # (B,)
    longest = int(limits.max()) if batch else 0
    token = np.full(batch, bos_id, dtype=np.int64)
    outputs = np.full((batch, longest), eos_id, dtype=np.int64)
    weights = []
    done = limits <= 0
    t = -1
    for t in range(longest):
        logits, state, w = model.decoder.step(token, state, enc_outputs, src_mask)   # (B, V)
        token = logits.data.argmax(-1)                                               # (B,)
        outputs[:, t] = np.where(done, eos_id, token)
        weights.append(None if w is None else w.data)
        done |= (token == eos_id) | (t + 1 >= limits)
        if done.all():
            break
    results, attention = [], []
    for row in range(batch):
        ids = list(outputs[row, :min(t + 1, int(limits[row]))])
        n = ids.index(eos_id) if eos_id in ids else len(ids)
        results.append([int(i) for i in ids[:n]])
        attention.append(None if not weights or weights[0] is None
                         else np.stack([w[row] for w in weights[:n + (eos_id in ids)]]))
    return results, attention


@no_grad()
def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
    """Keep the `beam_size` best partial translations (by total log-probability) at every step.

    src (1, S) or (S,) for one sentence -> (id list, weights (n, S) or None). A hypothesis that
    writes <eos> is finished; the search stops when no unfinished one can still beat the best
    finished one (log-probabilities only fall), or after `max_len` steps. With beam_size=1 this
    is exactly greedy decoding."""
    src = np.asarray(src).reshape(1, -1)
    enc_outputs, state, src_mask = model.encode(src)
    beams = [([], 0.0, [])]                              # (ids, score, weight rows)
    finished = []
    for _ in range(max_len):
        k = len(beams)
        tokens = np.array([ids[-1] if ids else bos_id for ids, _, _ in beams], dtype=np.int64)
        enc_k = F.concat([enc_outputs] * k, axis=0) if k > 1 else enc_outputs       # (k, S, H)
        mask_k = np.repeat(src_mask, k, axis=0)                                      # (k, S)
        logits, new_state, w = model.decoder.step(tokens, state, enc_k, mask_k)       # (k, V)
        log_p = F.log_softmax(logits).data                                           # (k, V)
        candidates = []
        for b, (_, score, _) in enumerate(beams):
            for token in np.argsort(-log_p[b], kind="stable")[:beam_size]:
                candidates.append((score + log_p[b, token], b, int(token)))
        candidates.sort(key=lambda c: -c[0])
        beams_next, keep = [], []
        for score, b, token in candidates:
            ids, _, rows = beams[b]
            new_rows = rows + ([] if w is None else [w.data[b]])
            if token == eos_id:
                finished.append((ids, score, new_rows))
            elif len(beams_next) < beam_size:
                beams_next.append((ids + [token], score, new_rows))
                keep.append(b)
            if len(beams_next) == beam_size:
                break
        best_finished = max((s for _, s, _ in finished), default=-np.inf)
        if not beams_next or best_finished >= beams_next[0][1]:
            break
        beams = beams_next
        state = rows_of(new_state, keep)                 # each part (k', H)
    else:
        finished.extend(beams)                           # max_len reached: take them as they are
    ids, _, rows = max(finished, key=lambda h: h[1])
    return ids, (np.stack(rows) if rows else None)


def rows_of(state, rows):
    """The given rows of every part of a decoder state (one tensor, or a tuple of them), as new
    leaves: the surviving hypotheses' states, each from the hypothesis it extends."""
    return map_state(lambda s: Tensor(s.data[rows]), state)
