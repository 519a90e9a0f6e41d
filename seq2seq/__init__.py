"""seq2seq: an LSTM encoder-decoder, with attention, that learns to translate and to align.

    python -m seq2seq demo            the main job
    python -m seq2seq train --help    and evaluate, translate, compare-lengths
"""

from minigrad import __version__  # one version for the three packages
from seq2seq.models.rnn import AttentionDecoder, Decoder, Encoder, Seq2Seq

__all__ = ["__version__", "Encoder", "Decoder", "AttentionDecoder", "Seq2Seq"]
