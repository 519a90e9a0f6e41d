"""The data's messages, in one place per language: en.py and ja.py, each a dict MESSAGES from a
key to a text with named placeholders: what is said of a pairs file that cannot be read as
pairs, and of a task asked for lengths it does not make. Kept here, not with the commands'
messages (seq2seq.commands.messages), so that the data loads without the machinery."""

from minigrad.language import Catalog

message = Catalog("seq2seq.data.messages")
