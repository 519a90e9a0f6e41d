"""seq2seq's messages, in one place per language: en.py and ja.py, each a dict MESSAGES from a
key to a text with named placeholders. `message(key, **values)` gives the text in the language
of the messages (minigrad.language: --lang, else the locale)."""

from minigrad.language import Catalog

message = Catalog("seq2seq.commands.messages")


class Phrase:
    """A message whose language is settled when it is shown, not when it is made: a phrase kept
    in data made at import time (a setting's reason for its bound, in settings.RULES), before
    `--lang` is read. str(Phrase("settings.why_beam")) is the text in the language of now."""

    def __init__(self, key):
        self.key = key

    def __str__(self):
        return message(self.key)

    def __repr__(self):
        return f"Phrase({self.key!r})"
