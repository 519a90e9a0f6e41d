"""What a run trained on and what it held out: the record its checkpoint keeps.

A score on "held-out" data means something only if the data was not trained on. Rebuilding the
split later does not guarantee that (the pairs file may have changed since; a generated test set
repeats short sources the training data also had), so the run writes down its split when it
trains, and every later score is checked against that record:

    {"val_pairs":      [[source, target], ...]    the validation pairs themselves, as text
     "train_sources":  uint64 array, sorted        one 64-bit hash per distinct training source
                                                  (whitespace runs made one space first)
     "hash":           "blake2b-64"                how those hashes are made (see `source_hash`)
     "corpus_sha256":  "9f86d0..."                 the data the run read (see `corpus_sha256`)}

The hashes keep the record small (8 bytes a source, 160 kB for 20,000) and come from hashlib, so
they are the same in every process, whatever PYTHONHASHSEED says. Two different sources share a
hash with a probability of about 1 in 10**19 per pair of sources: a false "seen" is not a
practical worry.
"""

import hashlib
from pathlib import Path

import numpy as np

from minigrad.files import open_regular
from seq2seq.data.messages import message
from seq2seq.data.tasks import TASKS, CorpusError, source_key

HASH = "blake2b-64"


def source_hash(source):
    """The 64-bit hash of a source string: the first 8 bytes of the BLAKE2b digest of its
    whitespace-normalised form (data.source_key: "a  b" and "a b" tokenize alike at word level,
    so they hash alike, as the train/validation split groups them)."""
    digest = hashlib.blake2b(source_key(source).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def source_hashes(sources):
    """The sorted, distinct hashes of `sources`, as a uint64 array (the record's form)."""
    return np.unique(np.array([source_hash(s) for s in sources], dtype=np.uint64))


def pairs_sha256(pairs):
    """sha256 of the pairs written out as a tab-separated file ("source\\ttarget\\n" each)."""
    digest = hashlib.sha256()
    for source, target in pairs:
        digest.update(f"{source}\t{target}\n".encode())
    return digest.hexdigest()


def file_sha256(path):
    """sha256 of a file's bytes (what `sha256sum` prints), read a megabyte at a time."""
    digest = hashlib.sha256()
    with open_regular(path, message("what.pairs"), CorpusError) as f:    # a FIFO: blocks
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def corpus_sha256(task, pairs):
    """The fingerprint of what a run read: the file's bytes for a pairs file, and for a built-in
    task the pairs it generated (so a change of the generator shows too)."""
    return pairs_sha256(pairs) if task in TASKS else file_sha256(task)


def make_record(train_pairs, val_pairs, corpus):
    """The record of a split, for the checkpoint (see the module's docstring)."""
    return {"val_pairs": [[s, t] for s, t in val_pairs],
            "train_sources": source_hashes(s for s, _ in train_pairs),
            "hash": HASH, "corpus_sha256": corpus}


def read_record(state, run):
    """The split record of a loaded checkpoint `state`; None for a checkpoint written before
    runs recorded their split. Raises ValueError, naming `run`, for a record it cannot read."""
    record = state.get("split")
    if record is None:
        return None
    if record.get("hash") != HASH:
        from seq2seq.translator import CHECKPOINT
        file = Path(run) / CHECKPOINT if Path(run).is_dir() else run
        raise ValueError(message("heldout.other_hash", file=file, found=repr(record.get("hash")),
                                 hash=repr(HASH)))
    return record


def seen_in_training(sources, record):
    """For each source, whether it is one of the run's training sources: a list of bools."""
    hashes = np.array([source_hash(s) for s in sources], dtype=np.uint64)
    known = np.asarray(record["train_sources"], dtype=np.uint64)
    if len(known) == 0:
        return [False] * len(hashes)
    at = np.minimum(np.searchsorted(known, hashes), len(known) - 1)   # sorted: binary search
    return (known[at] == hashes).tolist()


def drop_seen(pairs, record):
    """(the pairs whose source the run never trained on, how many pairs were dropped)."""
    seen = seen_in_training([s for s, _ in pairs], record)
    kept = [pair for pair, was_seen in zip(pairs, seen) if not was_seen]
    return kept, len(pairs) - len(kept)


def task_lengths(task, config, min_len=None, max_len=None):
    """The source lengths of the pairs `evaluate --task TASK` generates, and where they come
    from: --min-len/--max-len if given, else the run's own when it trained on that very task
    (a model trained on sources of up to 8 digits is scored on such sources, not on the task's
    default 3 to 12), else the task's defaults. Returns (low, high, where they come from: "given",
    "run" or "default", for the note the command writes in its language); low may be above high
    (a --max-len below the run's --min-len), which the command refuses in its words."""
    from seq2seq.data.tasks import DEFAULT_LENGTHS

    same = isinstance(config, dict) and config.get("task") == task
    run = [config.get(k) if same else None for k in ("min_len", "max_len")]
    default = DEFAULT_LENGTHS[task]
    chosen = []
    for given, saved, usual in zip((min_len, max_len), run, default):
        chosen.append(given if given is not None else saved if saved is not None else usual)
    low, high = chosen
    if min_len is not None or max_len is not None:
        return low, high, "given"
    return low, high, "run" if any(v is not None for v in run) else "default"
