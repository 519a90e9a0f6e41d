"""The models: what to read to understand how the encoder-decoder translates.

    rnn.py          Encoder and Seq2Seq: a recurrent layer reads the source, another writes the
                    target, and the bridge hands the encoder's final state across
    decoders.py     Decoder (the encoder's final state only) and AttentionDecoder (looks back
                    at every encoder state, "luong" or "bahdanau" wiring)
    recurrent.py    the recurrent layers: made from a class (nn.LSTM unless another is given),
                    checked against minigrad.nn.recurrent's contract; the bridge
    transformer.py  Transformer: attention only, no recurrence (attention.EncoderBlock and
                    DecoderBlock, stacked); the same interface as Seq2Seq
    block_contract.py  what an encoder block of your own must do to take EncoderBlock's place
    decoding.py     writing a translation: greedy decoding and beam search
    messages/       what a layer or block of the user's is told, in English or Japanese

The decoding works with any model whose `encode` and `decoder.step` work as Seq2Seq's do: the
Transformer's decoder state is its layers' kept keys and values, rows per sentence.
"""

from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.rnn import SCORINGS, WIRINGS, AttentionDecoder, Decoder, Encoder, Seq2Seq
from seq2seq.models.transformer import Transformer

__all__ = ["Encoder", "Decoder", "AttentionDecoder", "Seq2Seq", "Transformer", "SCORINGS",
           "WIRINGS", "greedy", "beam_search"]
