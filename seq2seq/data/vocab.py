"""Tokens and vocabularies: text -> tokens -> ids, and back.

Two tokenisation levels, nothing cleverer:

    "char"   every character is a token, spaces included:  "9/27/94" -> ["9", "/", "2", "7", ...]
    "word"   tokens are separated by whitespace:            "the cat eats" -> ["the", "cat", ...]

A `Vocab` numbers the tokens. Ids 0..3 are always the special tokens

    0  <pad>   fills a batch up to its longest sequence
    1  <bos>   "begin of sequence": the decoder's first input
    2  <eos>   "end of sequence": the decoder says it is done
    3  <unk>   any token the vocabulary has never seen

and the corpus tokens follow from id 4 on.
"""

import unicodedata
from collections import Counter

from seq2seq.data.messages import message

PAD, BOS, EOS, UNK = "<pad>", "<bos>", "<eos>", "<unk>"
SPECIALS = (PAD, BOS, EOS, UNK)
LEVELS = ("char", "word")


# Invisible characters that steer how text reads, not what it says: the bidirectional controls
# (a right-to-left override shows "abc" as "cba"), the zero-width space and no-break space, the
# word joiner and the byte order mark. The zero-width joiner and non-joiner are left: Persian and
# the Indic scripts write with them.
INVISIBLE = set("\u061c\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060"
                "\u2066\u2067\u2068\u2069\ufeff")


def control_character(text):
    """The first control character of `text` other than a tab, or None: Unicode's category Cc
    (a terminal escape, a carriage return, a bell), the line and paragraph separators (Zl, Zp)
    and the INVISIBLE ones. Printed, such a character would steer the terminal (clear it, set
    its title, hide a line) or the reading order; a sentence, and so a token, has none."""
    for ch in text:
        if ch != "\t" and (unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in INVISIBLE):
            return ch
    return None


def tokenize(text, level):
    """Split a string into tokens: characters ("char") or whitespace-separated words ("word")."""
    if level == "char":
        return list(text)
    if level == "word":
        return text.split()
    raise ValueError(f"unknown tokenisation level {level!r}; expected one of {LEVELS}")


def detokenize(tokens, level):
    """The inverse of `tokenize`: join characters with "" or words with " "."""
    if level == "char":
        return "".join(tokens)
    if level == "word":
        return " ".join(tokens)
    raise ValueError(f"unknown tokenisation level {level!r}; expected one of {LEVELS}")


class Vocab:
    """A two-way map between tokens and integer ids.

    >>> v = Vocab(["the", "cat"])
    >>> v.encode(["the", "dog"], eos=True)      # "dog" is unknown -> 3 (<unk>)
    [4, 3, 2]
    >>> v.decode([1, 4, 5, 2, 0, 0])            # drops <bos> and <pad>, stops at <eos>
    ['the', 'cat']
    """

    pad_id, bos_id, eos_id, unk_id = 0, 1, 2, 3

    def __init__(self, tokens=()):
        """The special tokens, then `tokens` in order (a repeated token keeps its first id)."""
        self.itos = []              # id -> token
        self.stoi = {}              # token -> id
        for token in (*SPECIALS, *tokens):
            if token not in self.stoi:
                self.stoi[token] = len(self.itos)
                self.itos.append(token)

    @classmethod
    def build(cls, token_lists, min_freq=1):
        """A vocabulary of every token seen at least `min_freq` times in `token_lists`.

        Ordered by frequency (most frequent first), ties broken by the token itself, so the same
        corpus always gives the same ids, whatever order its sentences come in.
        """
        counts = Counter(token for tokens in token_lists for token in tokens)
        kept = [token for token, count in counts.items() if count >= min_freq]
        kept.sort(key=lambda token: (-counts[token], token))
        return cls(kept)

    def __len__(self):
        return len(self.itos)

    def __contains__(self, token):
        return token in self.stoi

    def __repr__(self):
        shown = ", ".join(repr(t) for t in self.itos[len(SPECIALS):len(SPECIALS) + 8])
        more = ", ..." if len(self.itos) > len(SPECIALS) + 8 else ""
        return f"Vocab({len(self)} tokens: {shown}{more})"

    def index(self, token):
        """The id of `token`; `unk_id` for a token the vocabulary does not know."""
        return self.stoi.get(token, self.unk_id)

    def token(self, i):
        """The token with id `i`."""
        if not 0 <= i < len(self.itos):
            raise IndexError(f"token id {i} is out of range for a vocabulary of {len(self)} tokens")
        return self.itos[i]

    def encode(self, tokens, bos=False, eos=False):
        """Tokens -> ids, with <bos> in front and <eos> at the end if asked."""
        ids = [self.index(token) for token in tokens]
        if bos:
            ids.insert(0, self.bos_id)
        if eos:
            ids.append(self.eos_id)
        return ids

    def decode(self, ids, strip=True):
        """Ids -> tokens. With `strip`, drop <bos> and <pad> and stop at the first <eos>."""
        tokens = []
        for i in ids:
            i = int(i)                  # also takes NumPy integers
            if strip and i == self.eos_id:
                break
            if strip and i in (self.bos_id, self.pad_id):
                continue
            tokens.append(self.token(i))
        return tokens

    def to_dict(self):
        """A JSON-able description, saved inside checkpoints: {"tokens": [every token, by id]}."""
        return {"tokens": list(self.itos)}

    @classmethod
    def from_dict(cls, d):
        """The vocabulary that `to_dict` described, with the same ids."""
        tokens = list(d["tokens"])
        if tuple(tokens[:len(SPECIALS)]) != SPECIALS:
            raise ValueError(message("vocab.specials", specials=SPECIALS,
                                     found=tuple(tokens[:len(SPECIALS)])))
        if len(set(tokens)) != len(tokens):
            raise ValueError(message("vocab.repeated"))
        return cls(tokens[len(SPECIALS):])
