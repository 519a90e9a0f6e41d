"""The error a wrong checkpoint entry raises, and what its message says of the value found:
seq2seq.commands.checkpoint_entries and checkpoint_history raise it, checkpoint_reading puts it
in terms of the file."""

from minigrad.checkpoint import Declared
from seq2seq.commands.messages import message


class EntryError(ValueError):
    """An entry of the checkpoint is not what it should be; `entry` names it ("split.val_pairs")."""

    def __init__(self, entry, expected, found, found_text=None):
        self.entry = entry
        found_text = describe(found) if found_text is None else found_text
        super().__init__(message("entry.should_be", entry=repr(entry), expected=expected,
                                 found=found_text))

    @classmethod
    def missing(cls, entry, why=None):
        """No such entry: "no 'config.arch' entry", and `why` it should be there, if given."""
        error = cls(entry, "", None)
        error.args = (message("entry.missing", entry=repr(entry)) if why is None
                      else message("entry.missing_why", entry=repr(entry), why=why),)
        return error


def describe(value):
    """A short account of a value for a message: 7 -> "7 (int)"; an array -> its declaration."""
    if isinstance(value, Declared):
        return message("entry.array", shape=value.shape, dtype=value.dtype)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 50:
        return message("entry.big_int", bits=value.bit_length())
    text = repr(value)
    text = text if len(text) <= 60 else text[:45] + "..." + text[-10:]
    return f"{text} ({type(value).__name__})"


def list_of(value, entry, kind, what):
    if not isinstance(value, list) or not all(isinstance(item, kind) for item in value):
        raise EntryError(entry, message("entry.list_of", what=what), value)
    return value
