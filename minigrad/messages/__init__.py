"""minigrad's messages, in one place per language: en.py and ja.py, each a dict MESSAGES from
a key to a text with named placeholders. `message(key, **values)` gives the text in the language
of the messages (minigrad.language: --lang, else the locale); tests/test_messages.py checks that
both languages have the same keys and placeholders."""

from minigrad.language import Catalog

message = Catalog("minigrad.messages")


class Phrase:
    """A message whose language is settled when it is shown, not when it is made: a phrase kept
    in data made at import time (the GRU's gate names, which a diagnosis quotes), before
    `--lang` is read. str(Phrase("gru.reset_gate")) is "the reset gate r" or "リセットゲート r"."""

    def __init__(self, key):
        self.key = key

    def __str__(self):
        return message(self.key)

    def __repr__(self):
        return f"Phrase({self.key!r})"
