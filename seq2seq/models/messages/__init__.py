"""The models' messages, in one place per language: en.py and ja.py, each a dict MESSAGES from
a key to a text with named placeholders: what is said of a recurrent layer (--rnn) or an encoder
block (--block) of the user's that breaks its contract. Kept here, not with the commands'
messages (seq2seq.commands.messages), so that the models load without the machinery."""

from minigrad.language import Catalog

message = Catalog("seq2seq.models.messages")
