"""The explorer's words (minigrad/viz/explorer/words/): every English text has its Japanese one,
with the same placeholders, and no Japanese text is left in English; `explore(lang=...)` takes
the language's table and refuses any other language in one line."""

import re

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.viz import explore
from minigrad.viz.explorer.words import LANGUAGES, placeholders, say, words

EN, JA = words("en"), words("ja")
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
# Two English words in a row (letters only, each of two or more): a sentence left untranslated.
# Formulas (dL/dy * y), code (max_elements=..., register_hook) and op names alone do not match.
ENGLISH = re.compile(r"(?<![\w/.`])[A-Za-z]{2,} [A-Za-z]{2,}(?![\w(/])")
# Texts that are no sentence in any language.
SAME_IN_BOTH = {"html.lang", "page.gap", "not_caught.item"}


def test_every_english_text_has_a_japanese_one_with_the_same_placeholders():
    missing = [key for key in EN if key not in JA]
    assert not missing, missing
    differ = {key: (placeholders(EN[key]), placeholders(JA[key])) for key in EN
              if placeholders(EN[key]) != placeholders(JA[key])}
    assert not differ, differ


def test_no_japanese_text_is_left_in_english():
    left = [key for key in EN if key not in SAME_IN_BOTH
            and (JA[key] == EN[key] or not JAPANESE.search(JA[key]))]
    assert not left, left
    english = {key: ENGLISH.findall(re.sub(r"\{\w+\}", "", text)) for key, text in JA.items()}
    english = {key: found for key, found in english.items() if found}
    assert not english, english


def test_japanese_texts_write_parentheses_in_ascii_with_a_space_before():
    """「誤り (理由)」, as every other text of the page: no full-width （）."""
    wide = {key: text for key, text in JA.items() if "（" in text or "）" in text}
    assert not wide, wide
    assert say(JA, "not_caught.item", mistake="A", why="B") == "A (B)"


def test_no_japanese_text_puts_a_space_after_a_full_stop():
    """A Japanese sentence follows 「。」 with no space: in a text, and where the page joins two
    texts (page.gap)."""
    spaced = {key: text for key, text in JA.items() if re.search(r"。[ \u3000]", text)}
    assert not spaced, spaced
    assert JA["page.gap"] == "" and EN["page.gap"] == " "


def test_a_wrong_answer_is_called_wrong_whether_or_not_it_matches_a_known_mistake():
    """「違います」 for every wrong number, as English says "Not quite" for both keys: a known
    mistake may be far off (a term of a sum, ten times too small), so it is not 「惜しい」; the
    line after it names the mistake."""
    assert not [key for key, text in JA.items() if "惜しい" in text]
    assert JA["page.not_quite"].startswith("違います") and JA["page.close"].startswith("違います")
    assert EN["page.close"] == EN["page.not_quite"]


def test_the_check_for_english_catches_an_english_sentence():
    assert ENGLISH.findall("もう一度どうぞ。Show me を押せます")
    assert not ENGLISH.findall("dL/dx = dL/dy * y (1 - y)、max_elements=1024")


def test_every_op_of_minigrad_has_its_rule_in_japanese():
    import minigrad.nn  # noqa: F401  (the fused ops)
    from minigrad.autograd import Function

    def every(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from every(sub)
    ops = {cls.__name__ for cls in every(Function)
           if cls.__module__.startswith(("minigrad.ops", "minigrad.nn"))}
    assert ops and not [name for name in sorted(ops) if "rule." + name not in JA]


def test_say_fills_in_the_placeholders_and_keeps_other_braces():
    assert say(JA, "page.step", step=3, op="MatMul") == "ステップ 3: MatMul"
    assert say({"k": "{a} {b c} {}"}, "k", a=1) == "1 {b c} {}"


def test_explore_takes_the_japanese_table_and_refuses_another_language():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True, name="x")
    page = explore((x * x).sum(), lang="ja")
    assert page.data["lang"] == "ja" and page.data["text"]["page.check"] == "判定"
    text = page.html()
    assert '<html lang="ja">' in text and "凡例" in text and "Legend" not in text
    assert page.data["ops"][0]["rule"][0].startswith("y = a * b") and "それぞれ" in \
        page.data["ops"][0]["rule"][0]
    assert explore((x * x).sum()).data["lang"] == "en"
    with pytest.raises(ValueError, match=r"^explore: lang must be one of 'en', 'ja', not 'fr'$"):
        explore((x * x).sum(), lang="fr")
    assert LANGUAGES == ("en", "ja")


def test_a_masks_true_count_in_an_op_title_is_said_in_japanese():
    from minigrad.ops.elementwise import where

    x = Tensor(np.ones((2, 3)), requires_grad=True)
    cases = [(np.ones((2, 3), bool), "all True", "すべて True"),
             (np.eye(2, 3, dtype=bool), "2 of 6 True", "6 個中 2 個が True")]
    for cond, english, japanese in cases:
        root = where(cond, x, Tensor(np.zeros((2, 3)))).sum()
        assert english in explore(root).data["ops"][0]["title"]
        title = explore(root, lang="ja").data["ops"][0]["title"]
        assert japanese in title and english not in title
