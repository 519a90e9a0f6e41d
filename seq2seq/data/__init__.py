"""The data: from sentence pairs to the id arrays a model reads.

    tasks.py      the five built-in tasks (toy-ja-en, dates, reverse, copy, sort): make_task
    corpus.py     pairs files (one "source<sep>target" a line) and the train/validation split
    vocab.py      tokens and vocabularies: text -> tokens -> ids, and back
    batching.py   padded id arrays: sources padded on the left, targets framed by <bos>, <eos>
    heldout.py    what a run trained on and what it held out, the record its checkpoint keeps
    messages/     what a pairs file that cannot be read is told, in English or Japanese

The names a notebook needs most are here too: `from seq2seq.data import make_task`.
"""

from seq2seq.data.corpus import CorpusError, load_pairs, split_pairs
from seq2seq.data.tasks import TASKS, make_task, task_level

__all__ = ["TASKS", "make_task", "task_level", "load_pairs", "split_pairs", "CorpusError"]
