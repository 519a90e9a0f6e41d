"""The data side of seq2seq: tokenisers, Vocab, the built-in tasks, corpus files, heatmaps."""

import datetime
import json
import re
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from attention.figures import font_family
from seq2seq.data import tasks
from seq2seq.data.vocab import BOS, EOS, PAD, UNK, Vocab, detokenize, tokenize
from seq2seq.heatmap import SHADES, display_width, plot_heatmap, text_heatmap

SHARED_DATES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dates-dlfs2.txt"


# ---- tokenisers and Vocab ------------------------------------------------------------------

def test_tokenize_and_detokenize_round_trip():
    assert tokenize("9/27/94", "char") == ["9", "/", "2", "7", "/", "9", "4"]
    assert tokenize(" the  cat\teats ", "word") == ["the", "cat", "eats"]
    assert detokenize(tokenize("sep 27, 1994", "char"), "char") == "sep 27, 1994"
    assert detokenize(tokenize("ねこ が さかな", "word"), "word") == "ねこ が さかな"
    with pytest.raises(ValueError, match="'byte'"):
        tokenize("abc", "byte")


def test_vocab_specials_come_first_with_fixed_ids():
    v = Vocab(["b", "a", "b"])                  # a repeated token keeps its first id
    assert [v.token(i) for i in range(len(v))] == [PAD, BOS, EOS, UNK, "b", "a"]
    assert (v.pad_id, v.bos_id, v.eos_id, v.unk_id) == (0, 1, 2, 3)
    assert "a" in v and "z" not in v and len(v) == 6


def test_vocab_build_orders_by_frequency_then_token():
    v = Vocab.build([["c", "b", "a"], ["a", "b"], ["a", "d", "d"], [EOS]])
    assert v.to_dict()["tokens"][4:] == ["a", "b", "d", "c"]        # 3, 2, 2, 1 times
    assert len(v) == 8                                              # <eos> is not added twice
    frequent = Vocab.build([["c", "b", "a"], ["a", "b"]], min_freq=2)
    assert frequent.to_dict()["tokens"][4:] == ["a", "b"]
    # the order of the sentences does not change the ids
    forwards = Vocab.build([["x", "y"], ["y", "x"]])
    backwards = Vocab.build([["y", "x"], ["x", "y"]])
    assert forwards.to_dict() == backwards.to_dict()


def test_vocab_encode_decode_round_trip_with_unknown_tokens():
    v = Vocab.build([tokenize("the cat eats fish", "word")])
    ids = v.encode(["the", "dog", "eats"], bos=True, eos=True)
    assert ids == [v.bos_id, v.index("the"), v.unk_id, v.index("eats"), v.eos_id]
    assert v.index("dog") == 3
    assert v.decode(ids) == ["the", UNK, "eats"]
    assert v.decode(ids + [v.pad_id, v.pad_id]) == ["the", UNK, "eats"]
    assert v.decode(ids, strip=False) == [BOS, "the", UNK, "eats", EOS]
    # stops at the first <eos>, skips <pad>, takes NumPy integers
    assert v.decode(np.array([v.pad_id, v.index("cat"), v.eos_id, v.index("fish")])) == ["cat"]
    with pytest.raises(IndexError, match="out of range"):
        v.token(len(v))


def test_vocab_to_dict_from_dict_keeps_every_id_through_json():
    v = Vocab.build([tokenize("ねこ が さかな を たべる", "word"), ["ねこ"]])
    restored = Vocab.from_dict(json.loads(json.dumps(v.to_dict())))
    assert restored.to_dict() == v.to_dict()
    tokens = ["ねこ", "たべる", "?"]
    assert [restored.index(t) for t in tokens] == [v.index(t) for t in tokens]
    with pytest.raises(ValueError, match="must start with"):
        Vocab.from_dict({"tokens": ["a", PAD, BOS, EOS, UNK]})


# ---- toy-ja-en -------------------------------------------------------------------------------

def _translate(source):
    """An independent reading of the toy grammar: parse the Japanese, then write the English."""
    def np_english(words):
        out = []
        for k, part in enumerate(" ".join(words).split(" と ")):
            part = part.split()
            possessor = part[0] if len(part) > 1 and part[1] == "の" else None
            rest = part[2:] if possessor else part
            adjective, noun = (rest[0], rest[1]) if len(rest) == 2 else (None, rest[0])
            out += ["and"] * (k > 0) + ["the"] * bool(possessor or noun in tasks.ANIMATE)
            out += ([tasks.ADJECTIVES[adjective]] if adjective else []) + [tasks.NOUNS[noun]]
            out += ["of", "the", tasks.ANIMATE[possessor]] if possessor else []
        return out, k + 1

    english = []
    for k, clause in enumerate(source.split(" そして ")):
        words = clause.split()
        marker = next(i for i, w in enumerate(words) if w in ("が", "は"))
        subject, n_subjects = np_english(words[:marker])
        verb = words[-1]
        obj = np_english(words[marker + 1:-2])[0] if words[-2] == "を" else []
        verb_english = tasks.VERBS[verb][0 if n_subjects == 1 else 1]     # "eats" or "eat"
        english += ["and"] * (k > 0) + subject + [verb_english] + obj
    return " ".join(english)


def test_toy_grammar_makes_the_example_sentence():
    pairs = tasks.make_task("toy-ja-en", 3000, seed=0, max_len=5)
    assert ("ねこ が さかな を たべる", "the cat eats fish") in pairs


def test_toy_translation_is_a_function_of_the_source():
    pairs = tasks.make_task("toy-ja-en", 2000, seed=3)
    for source, target in pairs:
        assert _translate(source) == target, source
    seen = {}
    for source, target in tasks.make_task("toy-ja-en", 5000, seed=4, max_len=6):
        assert seen.setdefault(source, target) == target        # no source with two translations


def test_toy_alignment_crosses_verb_and_object():
    pairs = tasks.make_task("toy-ja-en", 1000, seed=5, max_len=8)
    simple = [(s.split(), t.split()) for s, t in pairs
              if "を" in s and not any(word in s for word in ("そして", "と", "の"))]
    assert len(simple) > 20
    for src, tgt in simple:
        assert src[-1] in tasks.VERBS                            # Japanese: the verb is last
        verb = tasks.VERBS[src[-1]][0]
        obj = tasks.NOUNS[src[src.index("を") - 1]]
        assert tgt.index(verb) < tgt.index(obj)                 # English: verb before object
        assert src.index("を") < len(src) - 1


def test_toy_lengths_follow_min_len_and_max_len():
    lengths = Counter(len(s.split()) for s, _ in tasks.make_task("toy-ja-en", 2000, seed=0))
    assert min(lengths) == 3 and max(lengths) == 25              # the default range, both ends
    assert len(lengths) == 23                                   # and every length in between
    lengths = {len(s.split()) for s, _ in tasks.make_task("toy-ja-en", 300, min_len=8, max_len=10)}
    assert lengths == {8, 9, 10}


def test_toy_vocabulary_is_small():
    pairs = tasks.make_task("toy-ja-en", 3000, seed=1)
    source_words = {w for s, _ in pairs for w in s.split()}
    assert len(source_words) == 15 + 8 + 6 + 6          # nouns, verbs, adjectives, particles
    assert {"が", "を", "は", "の", "と", "そして"} <= source_words


# ---- dates, reverse, copy, make_task -----------------------------------------------------------

STRPTIME_FORMATS = ["%B %d, %Y", "%b %d, %Y", "%A, %B %d, %Y", "%d %B %Y", "%d %b %Y", "%d-%b-%Y",
                    "%Y %b %d", "%m/%d/%y", "%m/%d/%Y", "%d.%m.%Y", "%d.%m.%y", "%Y/%m/%d"]


def _parse_dates(source):
    """Every date that `source` can be read as, by the standard library's strptime."""
    text = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", source, flags=re.IGNORECASE)
    found = set()
    for fmt in STRPTIME_FORMATS:
        try:
            found.add(datetime.datetime.strptime(text, fmt).date())
        except ValueError:
            pass
    return found


def test_dates_parse_back_to_exactly_their_iso_target():
    pairs = tasks.make_task("dates", 1500, seed=2)
    for source, target in pairs:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", target)
        date = datetime.date.fromisoformat(target)
        assert datetime.date(1970, 1, 1) <= date <= datetime.date(2029, 12, 31)
        assert _parse_dates(source) == {date}, source          # readable, and only one way
        weekday = source.split(",")[0].lower()
        if weekday in tasks.WEEKDAYS:
            assert weekday == tasks.WEEKDAYS[date.weekday()], source
    sources = [s for s, _ in pairs]
    assert any(s.isupper() for s in sources)
    assert any(s[0].isupper() and not s.isupper() for s in sources)
    assert any(re.fullmatch(r"\d+/\d+/\d\d", s) for s in sources)
    assert any(re.fullmatch(r"[a-z]+, [a-z]+ \d+, \d{4}", s) for s in sources)


def test_reverse_and_copy_are_digit_strings_of_the_asked_lengths():
    for source, target in tasks.make_task("reverse", 200, min_len=4, max_len=6):
        assert source.isdigit() and target == source[::-1] and 4 <= len(source) <= 6
    copies = tasks.make_task("copy", 200)
    assert all(s.isdigit() and t == s for s, t in copies)
    assert {len(s) for s, _ in copies} == set(range(3, 13))


def test_sort_puts_the_digits_0_1_2_in_order_with_repeats_kept():
    pairs = tasks.make_task("sort", 200, min_len=4, max_len=6)
    for source, target in pairs:
        assert target == "".join(sorted(source)) and 4 <= len(source) <= 6
    assert {c for s, _ in pairs for c in s} == {"0", "1", "2"}
    assert {len(s) for s, _ in tasks.make_task("sort", 200)} == set(range(3, 7))
    assert ("21020", "00122") == tasks.sort(iter_rng("21020"), 5, 5)
    assert any(len(set(s)) < len(s) for s, _ in pairs)          # repeated digits stay repeated
    assert tasks.task_level("sort") == "char"


def iter_rng(digits):
    """A stand-in for random.Random that draws the given digits, in order."""
    class Drawn:
        def __init__(self):
            self.left = iter(digits)

        def randint(self, low, high):
            return len(digits)

        def choice(self, _):
            return next(self.left)
    return Drawn()


def test_make_task_is_reproducible_from_its_seed():
    for name in tasks.TASKS:
        assert tasks.make_task(name, 50, seed=7) == tasks.make_task(name, 50, seed=7)
        assert tasks.make_task(name, 50, seed=7) != tasks.make_task(name, 50, seed=8)
    assert tasks.make_task("dates", 0) == []


def test_make_task_errors_name_the_tasks_and_the_lengths():
    with pytest.raises(ValueError, match="toy-ja-en, dates, reverse, copy, sort"):
        tasks.make_task("french", 10)
    with pytest.raises(ValueError, match="min_len"):
        tasks.make_task("copy", 10, min_len=5, max_len=2)
    with pytest.raises(ValueError, match="length 1..3"):
        tasks.make_task("dates", 10, max_len=3)                  # no date is that short
    with pytest.raises(ValueError, match="at least 3 words"):
        tasks.make_task("toy-ja-en", 10, min_len=1, max_len=2)


def test_task_level():
    assert [tasks.task_level(n) for n in tasks.TASKS] == ["word", "char", "char", "char",
                                                                 "char"]
    with pytest.raises(ValueError):
        tasks.task_level("nope")


# ---- corpus files --------------------------------------------------------------------------

def _write(tmp_path, content, name="pairs.txt"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def test_load_pairs_tab_separated_strips_and_skips_blank_lines(tmp_path):
    path = _write(tmp_path, "\ufeffねこ が ねる\tthe cat sleeps\r\n\n  a b \t x y  \n")
    assert tasks.load_pairs(path) == [("ねこ が ねる", "the cat sleeps"), ("a b", "x y")]


def test_load_pairs_custom_separator_strips_both_sides(tmp_path):
    path = _write(tmp_path, "september 27, 1994           _1994-09-27\n9/27/94 _a b\n")
    assert tasks.load_pairs(path, sep="_") == [("september 27, 1994", "1994-09-27"),
                                              ("9/27/94", "a b")]


ANKI = ("Go.\tVa !\tCC-BY 2.0 (France) Attribution: tatoeba.org #2877272 (CM)\n"
        "Hi.\tSalut !\tCC-BY 2.0 (France) Attribution: tatoeba.org #538123 (CM)\n")


def test_a_line_with_a_third_column_is_refused_not_trained_as_part_of_the_target(tmp_path):
    path = _write(tmp_path, ANKI)
    with pytest.raises(tasks.CorpusError) as info:
        tasks.load_pairs(path)
    message = str(info.value)
    assert message.startswith(f"{path}:1: found 3 columns separated by '\\t' in 'Go.\\tVa !")
    assert "--columns 1,2" in message and "\n" not in message
    with pytest.raises(tasks.CorpusError, match=r":2: found 3 columns separated by '_'"):
        tasks.load_pairs(_write(tmp_path, "a_b\n9/27/94 _a_b\n", "under.txt"), sep="_")


def test_columns_choose_the_source_and_target_of_a_tatoeba_export(tmp_path):
    path = _write(tmp_path, ANKI)
    assert tasks.load_pairs(path, columns=(1, 2)) == [("Go.", "Va !"), ("Hi.", "Salut !")]
    assert tasks.load_pairs(path, columns=(2, 1)) == [("Va !", "Go."), ("Salut !", "Hi.")]
    with pytest.raises(tasks.CorpusError, match=rf"^{re.escape(str(path))}:1: --columns 1,4 "
                                               "needs 4 columns, found 3 in "):
        tasks.load_pairs(path, columns=(1, 4))


@pytest.mark.parametrize("text", ["1", "1,2,3", "0,1", "a,b", "2,2", "1,²"])
def test_parse_columns_takes_two_different_column_numbers(text):
    with pytest.raises(ValueError, match="^columns "):
        tasks.parse_columns(text)
    assert tasks.parse_columns(" 3, 1") == (3, 1)


@pytest.mark.parametrize("ending", ["\r", "\r\n", "\n"])
def test_every_line_ending_gives_one_pair_a_line(tmp_path, ending):
    lines = [f"{i}{i + 1}\t{i + 1}{i}" for i in range(5)]
    path = _write(tmp_path, ending.join(lines) + ending)
    assert tasks.load_pairs(path) == [(f"{i}{i + 1}", f"{i + 1}{i}") for i in range(5)]
    path = _write(tmp_path, ending.join(lines + ["", "x y"]))      # a blank line, no last end
    with pytest.raises(tasks.CorpusError, match=r":7: expected 'source\\ttarget', found no"):
        tasks.load_pairs(path)


def test_a_crlf_split_across_two_reads_is_one_line_end(tmp_path, monkeypatch):
    from seq2seq.data import corpus
    monkeypatch.setattr(corpus, "CHUNK_BYTES", 4)       # "ab\tb" then "a\r" | "\ncd..."
    path = _write(tmp_path, "ab\tba\r\ncd\tdc\r\n\r\nef\tfe")
    assert tasks.load_pairs(path) == [("ab", "ba"), ("cd", "dc"), ("ef", "fe")]
    path = _write(tmp_path, "ab\tba\r" + "x" * 10 + "\r")
    with pytest.raises(tasks.CorpusError, match=":2: line longer than 8 bytes"):
        tasks.load_pairs(path, max_line_bytes=8)


@pytest.mark.parametrize("reserved", ["<pad>", "<bos>", "<eos>", "<unk>"])
def test_a_reserved_token_written_in_a_word_level_sentence_is_refused(tmp_path, reserved):
    path = _write(tmp_path, f"the cat\tle chat\nthe {reserved} dog\tle chien\n")
    with pytest.raises(tasks.CorpusError) as info:
        tasks.load_pairs(path, level="word")
    assert str(info.value).startswith(f"{path}:2: {reserved!r} is a reserved token at the word "
                                      "level")
    assert len(tasks.load_pairs(path, level="char")) == 2        # five characters there


@pytest.mark.parametrize("content, line, message", [
    ("a\tb\nc\td\nno separator here\n", 3, "found no '\\\\t'"),
    ("a\tb\n\n\t b\n", 3, "empty source"),
    ("", 1, "the file is empty"),
    ("\n\r\n", 2, "no pairs, all 2 lines are empty"),
    (b"a\tb\nc\t\xff\xfe\n", 2, "not UTF-8"),
    ("a\tb\nc\td\x1b[2J\n", 2, "the target holds the control character '\\\\x1b'"),
    ("a\x07\tb\n", 1, "the source holds the control character '\\\\x07'"),
    ("a\u202eb\tc\n", 1, "the source holds the control character '\\\\u202e'"),
    ("a\tb\u200bc\n", 1, "the target holds the control character '\\\\u200b'"),
    ("a\u2028b\tc\n", 1, "the source holds the control character '\\\\u2028'"),
])
def test_load_pairs_errors_name_the_file_and_the_line(tmp_path, content, line, message):
    path = _write(tmp_path, content)
    with pytest.raises(tasks.CorpusError, match=message) as info:
        tasks.load_pairs(path)
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("line, sep, hint", [
    ("abc cba", "\t", " ' '"),                 # the first separator that splits it in two
    ("ねこ,cat", "\t", " ','"),
    ("a b;c", "\t", " ' '"),
    ("a;b", "\t", " ';'"),
    ("a|b", ",", " '|'"),
    ("abc", ",", ""),                           # none would: --sep alone
    ("the cat\tle chat", ",", " '\\t'"),         # a tab before a space: two columns, not four
    ("a b c;d", "\t", " ';'"),                   # one that splits it in exactly two, first
])
def test_a_line_without_the_separator_says_to_give_another_with_sep(tmp_path, line, sep, hint):
    path = _write(tmp_path, f"{line}\n")
    with pytest.raises(tasks.CorpusError) as info:
        tasks.load_pairs(path, sep=sep)
    assert str(info.value) == (f"{path}:1: expected 'source{repr(sep)[1:-1]}target', found no "
                               f"{sep!r} in {line!r}; if the columns are separated by something "
                               f"else, give it with --sep{hint}")


@pytest.mark.parametrize("blank, message", [
    ("   \t   ", r"empty source and target in '   \t   '"),
    ("\t", r"empty source and target in '\t'"),
    ("   ", r"expected 'source\ttarget', found no '\t' in '   '; if the columns are separated "
     "by something else, give it with --sep"),
])
def test_a_line_of_only_whitespace_is_refused_like_an_empty_side_and_only_empty_lines_skipped(
        tmp_path, blank, message):
    path = _write(tmp_path, f"a\tb\n\n{blank}\nc\td\n")
    with pytest.raises(tasks.CorpusError) as info:
        tasks.load_pairs(path)
    assert str(info.value) == f"{path}:3: {message}"
    assert tasks.load_pairs(_write(tmp_path, "a\tb\n\n\r\nc\td\n\n")) == [("a", "b"),
                                                                     ("c", "d")]


def test_split_pairs_is_a_deterministic_shuffled_partition():
    pairs = [(str(i), str(i)) for i in range(100)]
    train, val = tasks.split_pairs(pairs, val_fraction=0.2, seed=1)
    assert len(train) == 80 and len(val) == 20
    assert sorted(train + val) == sorted(pairs)
    assert train != pairs[:80]                                  # shuffled
    assert (train, val) == tasks.split_pairs(pairs, val_fraction=0.2, seed=1)
    assert val != tasks.split_pairs(pairs, val_fraction=0.2, seed=2)[1]
    assert tasks.split_pairs(pairs, val_fraction=0.0)[1] == []
    with pytest.raises(ValueError):
        tasks.split_pairs(pairs, val_fraction=1.0)


@pytest.mark.skipif(not SHARED_DATES.exists(), reason="the shared dates file is not there")
def test_shared_dates_file_loads_fifty_thousand_pairs():
    pairs = tasks.load_pairs(SHARED_DATES, sep="_")
    assert len(pairs) == 50_000
    assert pairs[0] == ("september 27, 1994", "1994-09-27")
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) for _, t in pairs)
    assert all(s == s.strip() and s for s, _ in pairs)


# ---- heatmaps ------------------------------------------------------------------------------

def test_text_heatmap_shades_each_cell_by_its_weight():
    weights = np.array([[0.0, 0.25, 0.5, 0.75, 1.0]])
    lines = text_heatmap(weights, list("abcde"), ["x"]).splitlines()
    assert lines[0] == "   a b c d e"
    assert lines[1] == "x │  ░░▒▒▓▓██"
    assert lines[2].startswith("weight:")
    assert len(lines) == 1 + 1 + 1                              # header rows, output rows, legend


def test_text_heatmap_has_one_row_per_output_and_one_column_per_source():
    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(6), size=4)                 # (4, 6), rows sum to 1
    weights[:, -1] = 0.9                                        # so no row ends in blanks
    text = text_heatmap(weights, ["the", "cat", "eats", "<eos>", " ", "x"], ["a", "bb", "ccc", "d"])
    lines = text.splitlines()
    assert len(lines) == 5 + 4 + 1                              # "<eos>" is 5 characters high
    rows = lines[5:9]
    assert [r.split("│")[0].strip() for r in rows] == ["a", "bb", "ccc", "d"]
    assert all(len(r.split("│")[1]) == 6 * 2 and set(r.split("│")[1]) <= set(SHADES) for r in rows)
    assert "␣" in lines[0]                                      # a space token stays visible


def test_text_heatmap_pads_japanese_by_display_width():
    weights = np.full((2, 3), 0.9)
    text = text_heatmap(weights, ["ねこ", "が", "たべる"], ["the", "ねこ"])
    lines = text.splitlines()
    assert display_width("ねこ") == 4 and display_width("が") == 2
    widths = {display_width(line) for line in lines[3:5]}
    assert widths == {4 + 2 + 3 * 3}                            # labels, " │", 3 columns of 3
    assert lines[0] == "      ね が た"


def test_text_heatmap_cuts_long_headers_and_checks_the_shape():
    text = text_heatmap(np.ones((1, 1)), ["abcdefghijklmnop"], ["x"])
    assert [line[-1] for line in text.splitlines()[:10]] == list("abcdefghi…")
    with pytest.raises(ValueError, match=r"expected \(target tokens, source tokens\) = \(2, 3\)"):
        text_heatmap(np.ones((3, 2)), list("abc"), list("xy"))


def test_plot_heatmap_writes_a_png_without_glyph_warnings(tmp_path):
    pytest.importorskip("matplotlib")
    weights = np.array([[0.9, 0.1, 0.0], [0.0, 0.2, 0.8]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                          # a missing glyph must stay quiet
        figure = plot_heatmap(weights, ["ねこ", "が", "ねる"], ["the", "cat"],
                              tmp_path / "h.png", title="ねこ が ねる")
        png = figure._repr_png_()                               # what Jupyter shows
    path = tmp_path / "h.png"
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 2000


def test_font_family_adds_a_fallback_only_for_glyphs_it_needs():
    matplotlib = pytest.importorskip("matplotlib")
    default = list(matplotlib.rcParams["font.family"])
    assert font_family(["the", "cat", "<eos>"]) == default
    family = font_family(["ねこ"])
    assert family[:len(default)] == default and len(family) <= len(default) + 1


def test_a_fifo_or_directory_as_pairs_file_is_refused_at_once_naming_it(tmp_path):
    import os
    import subprocess
    import sys
    import threading
    fifo = tmp_path / "fifo.tsv"
    os.mkfifo(fifo)
    outcome = []

    def read():
        from seq2seq.data.heldout import file_sha256
        for read_file in (tasks.load_pairs, file_sha256):   # the pairs, the run's fingerprint
            try:
                read_file(fifo)
            except tasks.CorpusError as error:
                outcome.append(str(error))
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():                               # unblock it, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("load_pairs(FIFO) blocked")
    assert outcome == 2 * [f"{str(fifo)!r} is not a pairs file (a FIFO, not a regular file; "
                           "refused, nothing read)"]
    with pytest.raises(tasks.CorpusError, match="is not a pairs file .a directory"):
        tasks.load_pairs(tmp_path)
    done = subprocess.run([sys.executable, "-m", "seq2seq", "train", "--task", str(fifo),
                           "--out", str(tmp_path / "run")], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert "fifo.tsv" in done.stderr and "a FIFO" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# ---- how big a pairs file may be -----------------------------------------------------------

def _refused_before_parsing(path, match):
    """load_pairs(path) refused with `match`, and not for its last line, which is no pair:
    the size was checked before a line was parsed."""
    from seq2seq.data import corpus
    with pytest.raises(corpus.CorpusError, match=match):
        corpus.load_pairs(path)


def test_a_pairs_file_with_more_lines_than_max_pairs_is_refused_before_parsing(
        tmp_path, monkeypatch):
    from seq2seq.data import corpus
    monkeypatch.setattr(corpus, "MAX_PAIRS", 5)
    monkeypatch.setattr(corpus, "CHUNK_BYTES", 7)           # line ends cut across pieces
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"a\tb\r\n" * 5)
    assert corpus.load_pairs(path) == [("a", "b")] * 5      # five: at the limit, read
    path.write_bytes(b"a\tb\r\n" * 5 + b"no pair")         # a sixth line, unended
    _refused_before_parsing(path, rf"^{re.escape(str(path))}: 6 lines, more than the 5 pairs "
                                  "a pairs file may have$")
    path.write_bytes(b"a\tb\r" * 6)                        # old Mac line ends count too
    _refused_before_parsing(path, "6 lines, more than the 5 pairs")


def test_a_pairs_file_larger_than_max_file_bytes_is_refused_unread(tmp_path, monkeypatch):
    from seq2seq.data import corpus
    monkeypatch.setattr(corpus, "MAX_FILE_BYTES", 1024)
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"a\tb\n" * 256 + b"no pair")
    _refused_before_parsing(path, rf"^{re.escape(str(path))}: 1.0 KiB, more than the 1.0 KiB "
                                  "a pairs file may have$")


def test_a_pairs_file_too_big_for_the_memory_available_is_refused(tmp_path, monkeypatch):
    import minigrad.memory
    from seq2seq.data import corpus
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"12\t21\n" * 1000 + b"no pair")       # 1,001 lines, 6,007 bytes
    need = 1001 * corpus.BYTES_PER_PAIR + 6007 * corpus.BYTES_PER_FILE_BYTE
    monkeypatch.setattr(minigrad.memory, "available_bytes", lambda: need - 1)
    _refused_before_parsing(path, r"1,001 lines, 5.9 KiB: read and made ready to train on, "
                                  r"they would take about 492.7 KiB, more than the 492.7 KiB of "
                                  "memory available$")
    monkeypatch.setattr(minigrad.memory, "available_bytes", lambda: need)
    with pytest.raises(corpus.CorpusError, match=":1001: expected 'source"):
        corpus.load_pairs(path)                             # fits: read, and its last line refused


def test_train_refuses_a_pairs_file_too_big_in_one_line_leaving_no_folder(
        tmp_path, monkeypatch, capsys):
    from seq2seq.commands.cli import main
    from seq2seq.data import corpus
    monkeypatch.setattr(corpus, "MAX_PAIRS", 100)
    path = tmp_path / "big.tsv"
    path.write_text("".join(f"{i}\t{i}\n" for i in range(101)))
    assert main(["train", "--task", str(path), "--out", str(tmp_path / "run")]) == 1
    assert capsys.readouterr().err == (f"error: {path}: 101 lines, more than the 100 pairs a "
                                       "pairs file may have\n")
    assert not (tmp_path / "run").exists()
