"""The attention floor's messages, in one place per language: en.py and ja.py, each a dict
MESSAGES from a key to a text with named placeholders. `message(key, **values)` gives the text
in the language of the messages (minigrad.language: --lang, else the locale);
tests/test_messages.py checks that both languages have the same keys and placeholders."""

import unicodedata

from minigrad.language import Catalog
from minigrad.messages import Phrase as MinigradPhrase

message = Catalog("attention.messages")


class Phrase(MinigradPhrase):
    """A phrase of this catalogue kept in data made at import time (what the encoder block's
    diagnosis calls attn, h and ff), its language settled when it is shown:
    str(Phrase("block.attn")) is "the self-attention's output attn" or its Japanese."""

    def __str__(self):
        return message(self.key)


def width(text):
    """How many columns `text` takes in a terminal: two for a wide character (kana, kanji)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def fit(text, columns, align=">"):
    """`text` padded with spaces to `columns` terminal columns, on the left (align ">") or the
    right ("<"), as f"{text:>{columns}}" pads it, but counting a wide character as two: a
    Japanese heading lines up over its column. Longer text is left as it is."""
    space = " " * max(columns - width(text), 0)
    return space + text if align == ">" else text + space
