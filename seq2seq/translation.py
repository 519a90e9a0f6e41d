"""What `Translator.translate` returns for each text: the translation, the tokens it was written
as, and where the model looked while writing each of them.

    >>> t = translator.translate("ねこ が さかな を たべる")
    >>> t.text
    'the cat eats fish'
    >>> t.tokens                       # one per row of t.weights
    ['the', 'cat', 'eats', 'fish', '<eos>']
    >>> t.source_tokens                # one per column of t.weights
    ['ねこ', 'が', 'さかな', 'を', 'たべる']
    >>> t.plot_heatmap()               # a matplotlib Figure: Jupyter shows it inline

The row labels of a heatmap are the tokens the decoder wrote, kept as it wrote them, not the text
split again: splitting the text cannot know that "<unk>" was one token at the character level,
nor add the "<eos>" that a translation stopped by the length limit never wrote. A Translation
checks that its weights have one row per token and one column per source token.
"""

from dataclasses import dataclass

import numpy as np

from seq2seq.commands.messages import message
from seq2seq.data.vocab import EOS


@dataclass(frozen=True, repr=False, eq=False)
class Translation:
    """One translated text.

    text           the translation, as `evaluate` scores it (<pad> and <bos> left out)
    tokens         every token the decoder wrote, one per row of `weights`, ending with "<eos>"
                   when it wrote one (a translation stopped by the length limit did not)
    source_tokens  the source as the model read it, unknown tokens as "<unk>": one per column
    weights        the attention weights (len(tokens), len(source_tokens)), each row summing to
                   1, or None for the model without attention
    unknown        the source tokens, as written, that the model's vocabulary does not have (each
                   read as "<unk>"): when they are all the source, the translation says nothing
                   about the text
    """

    text: str
    tokens: list
    source_tokens: list
    weights: np.ndarray | None = None
    unknown: list = ()

    def __post_init__(self):
        expected = (len(self.tokens), len(self.source_tokens))
        if self.weights is not None and tuple(self.weights.shape) != expected:
            raise ValueError(f"attention weights of shape {tuple(self.weights.shape)} for "
                             f"{expected[0]} output and {expected[1]} source tokens")

    @property
    def finished(self):
        """True if the decoder wrote <eos>; False if it stopped at the length limit."""
        return bool(self.tokens) and self.tokens[-1] == EOS

    def __str__(self):
        return self.text

    def __repr__(self):
        weights = "no attention" if self.weights is None else f"weights {self.weights.shape}"
        limit = "" if self.finished else ", stopped at the length limit"
        unknown = f", {len(self.unknown)} unknown" if self.unknown else ""
        return (f"Translation({self.text!r}: {len(self.tokens)} tokens from "
                f"{len(self.source_tokens)}{unknown}, {weights}{limit})")

    def unknown_note(self):
        """One line on the source tokens the model does not know, or "" when it knows them all.
        Each is shown quoted (repr), so that a space or a tab, the unknown token of a digits model
        given "3 1 4", can be seen."""
        if not self.unknown:
            return ""
        n, total = len(self.unknown), len(self.source_tokens)
        shown = ", ".join(map(repr, self.unknown[:10])) + (", ..." if n > 10 else "")  # ' ' shows
        if n == total:
            return message("translate.unknown_all", total=total, shown=shown)
        return message("translate.unknown_some", count=n, total=total, shown=shown)

    def text_heatmap(self):
        """The weights as text, for a terminal (seq2seq.heatmap.text_heatmap)."""
        from seq2seq.heatmap import text_heatmap
        return text_heatmap(self._weights(), self.source_tokens, self.tokens)

    def plot_heatmap(self, path=None, overwrite=False):
        """The weights as a matplotlib Figure, titled with the text; also written to `path`
        when one is given (seq2seq.heatmap.plot_heatmap; a file there that no figure of ours
        wrote is replaced only with `overwrite`)."""
        from seq2seq.heatmap import plot_heatmap
        return plot_heatmap(self._weights(), self.source_tokens, self.tokens, path,
                            title=self.text, overwrite=overwrite)

    def _weights(self):
        if self.weights is None:
            raise ValueError(message("translate.no_attention"))
        return self.weights
