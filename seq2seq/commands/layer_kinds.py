"""The kinds of layer a run may take from the user's own file: a recurrent layer in place of the
LSTM (`--rnn my_gru.py:GRU`, --arch lstm) and an encoder block in place of attention's
EncoderBlock (`--block my_block.py:Block`, --arch transformer). Both are recorded, copied and
loaded again by the same machinery (seq2seq.commands.rnn_file); a `Kind` holds what differs:
the options' names, the checkpoint's entry (which is also the config's field), and the words
the messages use.
"""

from dataclasses import dataclass

from seq2seq.commands.messages import Phrase


@dataclass(frozen=True)
class Kind:
    option: str             # the train option that names the file: "--rnn"
    file_option: str        # the option of the later commands, for a run without its copy
    entry: str              # the checkpoint's entry and the TrainConfig field: "rnn"
    noun: Phrase            # "recurrent layer" (or its Japanese, when shown)
    example: str            # "my_gru.py:GRU"
    contract: str           # where the class's contract is written


RNN = Kind("--rnn", "--rnn-file", "rnn", Phrase("layer.noun_rnn"), "my_gru.py:GRU",
           "minigrad/nn/recurrent.py")
BLOCK = Kind("--block", "--block-file", "block", Phrase("layer.noun_block"), "my_block.py:Block",
             "seq2seq/models/block_contract.py")
KINDS = (RNN, BLOCK)


class NamedFile(str):
    """A layer file's path named on the command line, with the kind of layer the option that
    named it says it holds (`--rnn-file PATH`: RNN, `--block-file PATH`: BLOCK)."""

    def __new__(cls, path, kind=RNN):
        named = super().__new__(cls, path)
        named.kind = kind
        return named


def kind_of(named):
    """The kind a named file holds: a NamedFile's, else (a plain path) a recurrent layer's."""
    return getattr(named, "kind", RNN)
