"""What the experiments' tables are made of, in either language: a word padded to its column's
width in terminal cells (a kanji takes two, so that a Japanese heading lines up as the English
one does), and "seed 0" or "seeds 0, 1, 2"."""

from seq2seq.commands.messages import message
from seq2seq.heatmap import display_width


def cell(text, width, align="<"):
    """`text` padded with spaces to `width` terminal cells, aligned as format's "<", ">" or "^"
    align it (format's "^" puts the odd space on the right). Never cut: a longer text is left as
    it is."""
    space = max(0, width - display_width(text))
    if align == ">":
        return " " * space + text
    if align == "^":
        return " " * (space // 2) + text + " " * (space - space // 2)
    return text + " " * space


def widest(width, texts):
    """A column's width: `width`, or the widest of `texts` if wider (a Japanese label)."""
    return max([width, *(display_width(text) for text in texts)])


def seeds_named(seeds):
    """"seed 0" or "seeds 0, 1, 2", in the language of the messages."""
    return message("papers.seed_one" if len(seeds) == 1 else "papers.seed_many",
                   seeds=", ".join(map(str, seeds)))
