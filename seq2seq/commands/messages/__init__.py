"""seq2seq's messages, in one place per language: en.py and ja.py, each a dict MESSAGES from a
key to a text with named placeholders. `message(key, **values)` gives the text in the language
of the messages (minigrad.language: --lang, else the locale)."""

from minigrad.language import Catalog

message = Catalog("seq2seq.commands.messages")
