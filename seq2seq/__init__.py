"""seq2seq: encoder-decoders that learn to translate and to align: an LSTM with attention, and
the Transformer (`train --arch transformer`).

    python -m seq2seq demo            the main job
    python -m seq2seq train --help    and evaluate, translate, compare-lengths

The layout, a folder per concern:

    models/      what to read to understand the model: rnn.py (Encoder, Seq2Seq), decoders.py
                 (Decoder, AttentionDecoder), recurrent.py (the recurrent layers, the bridge),
                 decoding.py (greedy, beam search); transformer.py (Transformer) beside rnn.py
    data/        tasks.py (the built-in tasks), corpus.py (pairs files), vocab.py, batching.py,
                 heldout.py (what a run trained on and held out)
    commands/    `python -m seq2seq`: cli.py, train.py, run folders, settings, progress, layer
                 files, checkpoint checks, the demo, draw and explore
    papers/      the attention papers' figures, reproduced
    translator.py, translation.py, heatmap.py, metrics.py, to_torch.py
                 a trained model at work: load it, translate, look at its attention, score it,
                 take it to PyTorch; grade.py: the beam-search exercise
"""

from minigrad import __version__  # one version for the three packages
from seq2seq.models.rnn import AttentionDecoder, Decoder, Encoder, Seq2Seq
from seq2seq.models.transformer import Transformer

__all__ = ["__version__", "Encoder", "Decoder", "AttentionDecoder", "Seq2Seq", "Transformer"]
