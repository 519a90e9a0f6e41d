"""A trained model at work: `Translator` reads and writes text (greedy or beam search, each
translation with its tokens and attention weights, metrics), and `load_translator` rebuilds one
from a run folder.

Inference needs nothing from training: `translate`, `evaluate` and `draw` import this module only.
"""

from pathlib import Path

import numpy as np

from minigrad import no_grad
from seq2seq import metrics
from seq2seq.commands import rnn_file, runs
from seq2seq.commands.checkpoint_reading import checked_config, entry, read_checkpoint, renamed
from seq2seq.commands.messages import message
from seq2seq.data.batching import encode_source, pad_sources
from seq2seq.data.vocab import EOS, SPECIALS, Vocab, detokenize, tokenize
from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.rnn import Seq2Seq
from seq2seq.models.transformer import Transformer
from seq2seq.translation import Translation

CHECKPOINT = "checkpoint.npz"

# The longest source `translate` takes, in tokens (characters or words, by the model's level).
# Far beyond what the built-in tasks train on (tens of tokens), yet bounded: decoding runs up to
# 2 S + 10 steps, each attending over all S source positions, and keeps a (2 S + 10, S) weight
# matrix for the heatmap, so the cost grows as S squared (times the beam size). At 1,000 tokens a
# hidden-256 model that never writes <eos> took 1 to 2 s greedy and 18 to 42 s with beam 4 (on a
# busy 2-core machine), in about 100 MB; at 2,000 tokens greedy alone took 13 to 80 s.
MAX_SOURCE_TOKENS = 1000


class Translator:
    """A trained model with what it needs to read and write text: vocabularies and settings.
    `rnn_record`: where the model's recurrent layer comes from (seq2seq.commands.rnn_file), None for
    the LSTM; `block_record` likewise for a Transformer's encoder block, None for EncoderBlock."""

    def __init__(self, model, src_vocab, tgt_vocab, level, reverse_input, rnn_record=None,
                 block_record=None):
        self.model, self.src_vocab, self.tgt_vocab = model, src_vocab, tgt_vocab
        self.level, self.reverse_input = level, reverse_input
        self.rnn_record, self.block_record = rnn_record, block_record

    def source_ids(self, texts):
        return pad_sources([encode_source(t, self.src_vocab, self.level, self.reverse_input)
                            for t in texts], self.src_vocab.pad_id)

    def source_tokens(self, text):
        """The source tokens as written, unknown ones as <unk> (the heatmap's columns)."""
        return [t if t in self.src_vocab else "<unk>" for t in tokenize(text, self.level)]

    def most_source_tokens(self):
        """The longest source this model takes: MAX_SOURCE_TOKENS, or a Transformer's max_len
        if that is less (its positions, learned or not, stop there)."""
        if isinstance(self.model, Transformer):
            return min(MAX_SOURCE_TOKENS, self.model.max_len)
        return MAX_SOURCE_TOKENS

    def source_problem(self, text):
        """Why `text` cannot be translated, as the end of a sentence ("is empty: ...", "has
        1200 tokens ..."), or None: no tokens, more than translate or the model takes, or a
        reserved token written out at the word level (each would be read as that token)."""
        n = len(tokenize(text, self.level))
        if n == 0:                              # alone or in a batch alike: nothing to translate
            return message("translator.empty")
        if n > MAX_SOURCE_TOKENS:
            return message("translator.too_many", n=n, level=self.level, most=MAX_SOURCE_TOKENS)
        if n > self.most_source_tokens():
            return message("translator.model_most", n=n, level=self.level,
                           most=self.most_source_tokens())
        reserved = [w for w in text.split() if w in SPECIALS] if self.level == "word" else []
        if reserved:
            return message("translator.reserved", token=repr(reserved[0]),
                           specials=" ".join(SPECIALS))
        return None

    def translate(self, texts, max_len=None, beam_size=1):
        """A list of texts -> a list of Translations (seq2seq.translation): each with its text,
        the tokens written, the source tokens and the attention weights, one row per token
        written. One text (a str) -> one Translation. A text longer than MAX_SOURCE_TOKENS, or
        one that writes out a reserved token (<pad> <bos> <eos> <unk>) at the word level, is a
        ValueError saying so."""
        if isinstance(texts, str):
            return self.translate([texts], max_len, beam_size)[0]
        self.model.eval()
        lengths = [len(tokenize(t, self.level)) for t in texts]
        if max_len is not None and not (isinstance(max_len, int) and max_len >= 1):
            raise ValueError(message("translator.max_len", value=repr(max_len)))
        for i, text in enumerate(texts):       # all checked before any is translated
            problem = self.source_problem(text)
            if problem is not None:
                which = (message("translator.the_text") if len(texts) == 1
                         else message("translator.text_i", i=i + 1, n=len(texts)))
                raise ValueError(message("translator.bad_text", which=which, problem=problem))
        # Each sentence's own limit (2 n + 10 for n source tokens), not the batch's longest: a
        # sentence that never writes <eos> then stops at the same point alone and in a batch.
        limits = [max_len or 2 * n + 10 for n in lengths]
        if isinstance(self.model, Transformer):     # it has no position beyond its max_len
            limits = [min(limit, self.model.max_len) for limit in limits]
        tgt = self.tgt_vocab
        if beam_size > 1:
            out = [beam_search(self.model, self.source_ids([t]), tgt.bos_id, tgt.eos_id,
                               beam_size, limit) for t, limit in zip(texts, limits)]
            ids, weights = [o[0] for o in out], [o[1] for o in out]
        else:
            ids, weights = [], []
            for start in range(0, len(texts), 256):
                chunk = texts[start:start + 256]
                i, w = greedy(self.model, self.source_ids(chunk), tgt.bos_id, tgt.eos_id,
                              limits[start:start + 256])
                ids += i
                weights += w
        return [self._translation(*row) for row in zip(texts, ids, weights, limits)]

    def _translation(self, text, ids, weights, limit):
        """The Translation of `text` from the ids decoding wrote (without <eos>) and its weights
        (one row per step). Fewer ids than the limit means the last step wrote <eos>."""
        written = [self.tgt_vocab.token(i) for i in ids] + ([EOS] if len(ids) < limit else [])
        source = self.source_tokens(text)
        if weights is not None:
            weights = self._as_written(weights, len(source))
        unknown = [t for t in tokenize(text, self.level) if t not in self.src_vocab]
        return Translation(detokenize(self.tgt_vocab.decode(ids), self.level), written, source,
                           weights, unknown)

    def _as_written(self, weights, n):
        """Attention weights (..., n_out, S) -> (..., n_out, n): the left padding's columns
        dropped and, for a reversed input, the columns put back in the order the source is
        written."""
        weights = weights[..., weights.shape[-1] - n:]
        return weights[..., ::-1] if self.reverse_input else weights

    def cross_attention(self, text, translation):
        """A Transformer's cross-attention while it wrote `translation` of `text`, every layer's
        and every head's: (L, H, n_out, n), one row per token written (translation.tokens), one
        column per source token as written (translation.source_tokens). The tokens written are
        run through the decoder again, all at once: the causal mask lets row t see only what
        step t saw, so the rows are those decoding made (to round-off), and the mean of the
        last layer's heads is translation.weights."""
        if not isinstance(self.model, Transformer):
            raise ValueError(message("translator.not_transformer",
                                     model=type(self.model).__name__))
        tgt, rows = self.tgt_vocab, len(translation.tokens)
        tgt_in = np.array([[tgt.bos_id, *tgt.encode(translation.tokens)][:rows]])   # (1, n_out)
        self.model.eval()
        with no_grad():
            self.model(self.source_ids([text]), tgt_in)
        weights = np.stack([w[0] for w in self.model.decoder.cross_weights])  # (L, H, n_out, S)
        return self._as_written(weights, len(translation.source_tokens))

    def evaluate(self, pairs, beam_size=1):
        """Exact match, token accuracy, BLEU and accuracy by source length on (src, ref) pairs,
        and how many outputs are blank (empty, or spaces only: what a character-level model that
        learnt only the spaces writes).

        BLEU counts the run's own tokens: characters for a character-level run (13a words would
        make a right "12345" one word, with no 4-gram, and BLEU 0), 13a words for a word-level
        one; "bleu_tokens" says which."""
        sources = [s for s, _ in pairs]
        references = [r for _, r in pairs]
        hypotheses = [t.text for t in self.translate(sources, beam_size=beam_size)]
        return {
            "exact_match": metrics.exact_match(hypotheses, references),
            "token_accuracy": metrics.token_accuracy(
                [tokenize(h, self.level) for h in hypotheses],
                [tokenize(r, self.level) for r in references]),
            "bleu": metrics.corpus_bleu(hypotheses, references, metrics.bleu_tokens(self.level)),
            "bleu_tokens": metrics.bleu_tokens(self.level),
            "by_length": metrics.accuracy_by_length(
                [tokenize(s, self.level) for s in sources], hypotheses, references),
            "examples": len(pairs),
            "blank_outputs": sum(not h.strip() for h in hypotheses),    # nothing but spaces
        }


def load_translator(path, layer_file=None):
    """A run folder (or its checkpoint file) -> (Translator, the checkpoint dict). A recurrent
    layer from a file runs only from the copy in the checkpoint's folder, or from `layer_file`,
    a file the user named (--rnn-file), taken in its place; either only if its bytes hash as
    the recorded ones (seq2seq.commands.rnn_file.class_of). Never from a path the checkpoint alone
    names.

    Whatever is wrong with the file's content (a missing entry, weights whose shapes disagree
    with the model's settings, a vocabulary that is not one) is a ValueError that starts with
    the file's name and names the entry: the error is about that file, whichever line found it.
    Every entry's type, and every weight's declared shape, is checked before any array's data
    is read (seq2seq.commands.checkpoint_entries); weights that are not finite, once they are
    read."""
    path = Path(path)
    _check_run_there(path)
    file = path / CHECKPOINT if path.is_dir() else path
    state = read_checkpoint(file)
    arrays = renamed(state["model"])
    record, block_record = state.get("rnn"), state.get("block")    # None: the project's
    classes = {}
    for kind, saved in ((rnn_file.RNN, record), (rnn_file.BLOCK, block_record)):
        named = layer_file if rnn_file.kind_of(layer_file) is kind else None
        if saved is None and named is not None:
            why = ("block" if kind is rnn_file.BLOCK else "transformer"
                   if state.get("model_config", {}).get("d_model") is not None else "lstm")
            raise ValueError(message(f"translator.no_layer_file_{why}", named=named, file=file,
                                     option=kind.file_option))
        classes[kind.entry] = (None if saved is None                    # refused if changed
                               else rnn_file.class_of(saved, file, moved=named, kind=kind))
    model = entry(file, state, "model_config", lambda config: make_model(
        checked_config(config, arrays, classes["rnn"]), classes["rnn"], classes["block"]))
    entry(file, state, "model", lambda _: model.load_state_dict(arrays))
    translator = Translator(model, Vocab.from_dict(state["src_vocab"]),
                            Vocab.from_dict(state["tgt_vocab"]), state["level"],
                            bool(state["reverse_input"]), record, block_record)
    return translator, state


def make_model(config, rnn=None, block=None):
    """The model a checked model_config rebuilds: a Transformer's holds d_model (an encoder
    block from a file only there, a recurrent layer from a file only in the other)."""
    if "d_model" in config:
        if rnn is not None:
            raise ValueError(message("translator.transformer_rnn"))
        return Transformer(**config, block=block)
    if block is not None:
        raise ValueError(message("translator.lstm_block"))
    return Seq2Seq(**config, rnn=rnn)


def _check_run_there(path):
    """A missing run is named as one, with the command that makes it, rather than as the
    operating system's "[Errno 2] No such file or directory" about a path the user never typed
    (the checkpoint inside the folder)."""
    train = message("runs.train_one", path=path)
    if path.is_dir() and not (path / CHECKPOINT).exists():
        raise FileNotFoundError(message("runs.not_a_run", path=path, checkpoint=CHECKPOINT,
                                        train=train))
    if not path.exists() and path.suffix != ".npz":     # a checkpoint file keeps its own error
        raise FileNotFoundError(message("runs.no_run", path=path, train=train))
    runs.check_swap_finished(path if path.is_dir() else path.parent)
