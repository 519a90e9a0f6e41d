"""Source/target sentence pairs: five built-in tasks (corpus files: `seq2seq.data.corpus`, whose
names are here too).

    make_task("toy-ja-en", 3)   -> [("ねこ が さかな を たべる", "the cat eats fish"), ...]
    make_task("dates", 3)       -> [("tuesday, september 27, 1994", "1994-09-27"), ...]
    make_task("reverse", 3)     -> [("40719", "91704"), ...]
    make_task("copy", 3)        -> [("40719", "40719"), ...]
    make_task("sort", 3)        -> [("21020", "00122"), ...]
    load_pairs("dates.txt", sep="_")   one "source<sep>target" pair a line

Every task is a function `(rng, min_len, max_len) -> (source, target)` in `TASKS`; `make_task`
calls it n times with one `random.Random(seed)`, so a seed always gives the same pairs. Lengths
are counted in tokens at the task's level (`task_level`): words for toy-ja-en, characters for
the others.
"""

import datetime
import random

from seq2seq.data.corpus import (  # noqa: F401  (the corpus files' names, where they always were)
    MAX_LINE_BYTES,
    CorpusError,
    load_pairs,
    parse_columns,
    source_key,
    split_pairs,
)
from seq2seq.data.messages import message
from seq2seq.data.vocab import tokenize

# ---- toy-ja-en: Japanese -> English from a small grammar (see `toy_ja_en`) -----------------

ANIMATE = {"ねこ": "cat", "いぬ": "dog", "とり": "bird", "こども": "child", "せんせい": "teacher",
           "がくせい": "student", "ともだち": "friend"}
FOOD = {"さかな": "fish", "パン": "bread", "りんご": "apples"}
DRINKS = {"みず": "water", "おちゃ": "tea", "ぎゅうにゅう": "milk"}
READING = {"ほん": "books", "てがみ": "letters"}
THINGS = {**FOOD, **DRINKS, **READING}
NOUNS = {**ANIMATE, **THINGS}
ADJECTIVES = {"おおきい": "big", "ちいさい": "small", "しろい": "white", "くろい": "black",
              "あかい": "red", "ふるい": "old"}
# verb: (English for one subject, for two, the nouns it takes as object; None: no object)
VERBS = {"たべる": ("eats", "eat", FOOD), "のむ": ("drinks", "drink", DRINKS),
         "よむ": ("reads", "read", READING), "かう": ("buys", "buy", THINGS),
         "みる": ("sees", "see", NOUNS), "ねる": ("sleeps", "sleep", None),
         "はしる": ("runs", "run", None), "あそぶ": ("plays", "play", None)}
TRANSITIVE = [v for v, (_, _, objects) in VERBS.items() if objects is not None]
INTRANSITIVE = [v for v, (_, _, objects) in VERBS.items() if objects is None]


def _japanese(clauses):
    """Clauses as [subject, object or None, verb, particle]; a noun phrase is a list of parts
    [possessor or None, adjective or None, noun]."""
    def noun_phrase(parts):
        words = []
        for i, (possessor, adjective, noun) in enumerate(parts):
            words += (["と"] if i else []) + ([possessor, "の"] if possessor else [])
            words += ([adjective] if adjective else []) + [noun]
        return words
    words = []
    for i, (subject, obj, verb, particle) in enumerate(clauses):
        words += (["そして"] if i else []) + noun_phrase(subject) + [particle]
        words += (noun_phrase(obj) + ["を"] if obj else []) + [verb]
    return words


def _english(clauses):
    def noun_phrase(parts):
        words = []
        for i, (possessor, adjective, noun) in enumerate(parts):
            words += (["and"] if i else []) + (["the"] if possessor or noun in ANIMATE else [])
            words += ([ADJECTIVES[adjective]] if adjective else []) + [NOUNS[noun]]
            words += ["of", "the", ANIMATE[possessor]] if possessor else []
        return words
    words = []
    for i, (subject, obj, verb, _) in enumerate(clauses):
        one, two, _ = VERBS[verb]
        words += (["and"] if i else []) + noun_phrase(subject) + [one if len(subject) == 1 else two]
        words += noun_phrase(obj) if obj else []
    return words


def _grow(rng, clauses, room):
    """Make the sentence longer by one random step of at most `room` words; False if none fits."""
    parts = [part for clause in clauses for phrase in clause[:2] if phrase for part in phrase]
    steps = []                                  # (words added, what to do)
    if any(part[1] is None for part in parts):
        steps.append((1, "adjective"))
    if any(part[0] is None for part in parts):
        steps.append((2, "possessor"))
    if any(len(c[role]) == 1 for c in clauses for role in (0, 1) if c[role]):
        steps.append((2, "and"))
    if any(c[1] is None for c in clauses):
        steps.append((2, "object"))
    steps.append((4, "clause"))                 # "そして N が V"
    steps = [step for size, step in steps if size <= room]
    if not steps:
        return False
    step = rng.choice(steps)
    if step in ("adjective", "possessor"):
        slot = 1 if step == "adjective" else 0
        part = rng.choice([part for part in parts if part[slot] is None])
        part[slot] = rng.choice(list(ADJECTIVES if slot else ANIMATE))
    elif step == "and":
        one_noun = [(c, r) for c in clauses for r in (0, 1) if c[r] and len(c[r]) == 1]
        clause, role = rng.choice(one_noun)     # a subject (0) or object (1) of one noun
        nouns = ANIMATE if role == 0 else VERBS[clause[2]][2]
        clause[role].append([None, None, rng.choice(list(nouns))])
    elif step == "object":
        clause = rng.choice([c for c in clauses if c[1] is None])
        clause[2] = rng.choice(TRANSITIVE)
        clause[1] = [[None, None, rng.choice(list(VERBS[clause[2]][2]))]]
    else:
        clauses.append(_simple_clause(rng))
    return True


def _simple_clause(rng):
    """"N が V" (or "N は V"), with an intransitive verb: three words."""
    particle = "は" if rng.random() < 0.25 else "が"
    return [[[None, None, rng.choice(list(ANIMATE))]], None, rng.choice(INTRANSITIVE), particle]


def toy_ja_en(rng, min_len, max_len):
    """A Japanese sentence of a small grammar and its English translation, word by word:

        sentence := clause ("そして" clause)*          -> clause ("and" clause)*
        clause   := np ("が" | "は") [np "を"] verb     -> np verb [np]             (SOV -> SVO)
        np       := part ["と" part]                    -> part ["and" part]
        part     := [possessor "の"] [adjective] noun   -> [the] [adjective] noun [of the possessor]

    "ねこ が さかな を たべる" -> "the cat eats fish". A subject is a person or an animal ("the
    cat"), and so is a possessor; an object is whatever its verb takes (FOOD for たべる, DRINKS
    for のむ, ...): things come without "the" ("fish", "apples") unless they have a possessor
    ("the fish of the cat"). The verb agrees with its subject: "the cat eats", "the cat and the
    dog eat". "が" (subject) and "は" (topic) translate the same. Every source has one parse, so
    its translation is fixed and a model can get every sentence right. The alignment crosses
    twice: the object comes before the verb in Japanese and after it in English, and "A の B"
    becomes "B of A".

    The length, in Japanese words, is drawn evenly from [min_len, max_len] (at least 3); the
    sentence starts as "N が V" and grows by random steps (an adjective, a possessor, a second
    noun with "と", an object, another clause) until it has exactly that length.
    """
    if max_len < 3:
        raise ValueError(message("tasks.toy_too_short", max_len=max_len))
    length = rng.randint(max(min_len, 3), max_len)
    while True:
        clauses = [_simple_clause(rng)]
        size = 3
        while size < length and _grow(rng, clauses, length - size):
            size = len(_japanese(clauses))
        if size == length:
            return " ".join(_japanese(clauses)), " ".join(_english(clauses))


# ---- dates: the ways people write a date -> ISO 8601 (see `dates`) ---------------------------

FIRST_DATE, LAST_DATE = datetime.date(1970, 1, 1), datetime.date(2029, 12, 31)
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DATE_FORMATS = [                                # fields: see _date_fields
    "{month} {day}, {year}",                    # september 27, 1994
    "{mon} {day}, {year}",                      # sep 27, 1994
    "{weekday}, {month} {day}, {year}",         # tuesday, september 27, 1994
    "{month} {nth}, {year}",                    # september 27th, 1994
    "{day} {month} {year}",                     # 27 september 1994
    "{day} {mon} {year}",                       # 27 sep 1994
    "{dd}-{mon}-{year}",                        # 27-sep-1994
    "{year} {mon} {day}",                       # 1994 sep 27
    "{m}/{day}/{yy}",                           # 9/27/94
    "{mm}/{dd}/{year}",                         # 09/27/1994
    "{dd}.{mm}.{year}",                         # 27.09.1994
    "{day}.{m}.{yy}",                           # 27.9.94
    "{year}/{mm}/{dd}",                         # 1994/09/27
]


def _ordinal(day):
    suffix = "th" if 11 <= day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _date_fields(date, case):
    month, weekday = MONTHS[date.month - 1], WEEKDAYS[date.weekday()]
    return {"month": case(month), "mon": case(month[:3]), "weekday": case(weekday),
            "day": date.day, "nth": case(_ordinal(date.day)), "dd": f"{date.day:02d}",
            "m": date.month, "mm": f"{date.month:02d}", "year": date.year,
            "yy": f"{date.year % 100:02d}"}


def dates(rng, min_len, max_len):
    """A random date written in a random format -> "YYYY-MM-DD" ("27.09.1994" -> "1994-09-27").

    Dates from 1970-01-01 to 2029-12-31, in one of DATE_FORMATS, with month and weekday names in
    lower case, capitalised or upper case. Slashes are always month/day/year (US), points
    day.month.year. A two-digit year means 1970-1999 for 70-99 and 2000-2029 for 00-29, so every
    source names exactly one date. (Lengths are not aimed at: make_task filters them.)
    """
    date = datetime.date.fromordinal(rng.randint(FIRST_DATE.toordinal(), LAST_DATE.toordinal()))
    case = rng.choice([str.lower, str.capitalize, str.upper])
    source = rng.choice(DATE_FORMATS).format(**_date_fields(date, case))
    return source, date.isoformat()


# ---- reverse, copy and sort: digit strings ------------------------------------------------

def _digits(rng, min_len, max_len, digits="0123456789"):
    return "".join(rng.choice(digits) for _ in range(rng.randint(min_len, max_len)))


def reverse(rng, min_len, max_len):
    """"40719" -> "91704": the first output needs the last input, so attention must look far."""
    digits = _digits(rng, min_len, max_len)
    return digits, digits[::-1]


def copy(rng, min_len, max_len):
    """"40719" -> "40719": the easiest alignment there is, the diagonal."""
    digits = _digits(rng, min_len, max_len)
    return digits, digits


def sort(rng, min_len, max_len):
    """"21020" -> "00122": the digits 0, 1 and 2 in order, as in minGPT's demo task (which sorts
    six of them). Each output digit may come from anywhere in the source: the model must count
    the 0s, 1s and 2s, not follow one alignment."""
    digits = _digits(rng, min_len, max_len, "012")
    return digits, "".join(sorted(digits))


TASKS = {"toy-ja-en": toy_ja_en, "dates": dates, "reverse": reverse, "copy": copy, "sort": sort}
LEVELS = {"toy-ja-en": "word", "dates": "char", "reverse": "char", "copy": "char", "sort": "char"}
DEFAULT_LENGTHS = {"toy-ja-en": (3, 25), "dates": (1, 100), "reverse": (3, 12), "copy": (3, 12),
                   "sort": (3, 6)}


def _check_name(name):
    if name not in TASKS:
        raise ValueError(message("tasks.unknown", name=repr(name), tasks=", ".join(TASKS)))


def task_level(name):
    """How the task's text is cut into tokens: "word" for toy-ja-en, "char" for the others."""
    _check_name(name)
    return LEVELS[name]


def make_task(name, n, seed=0, min_len=None, max_len=None):
    """n (source, target) pairs of a built-in task, the same for the same seed.

    min_len / max_len bound the source length in tokens (defaults: the task's own range). The
    tasks that can aim at a length draw it evenly from the range; dates are filtered.
    """
    _check_name(name)
    min_len = DEFAULT_LENGTHS[name][0] if min_len is None else min_len
    max_len = DEFAULT_LENGTHS[name][1] if max_len is None else max_len
    if not 1 <= min_len <= max_len:
        raise ValueError(message("tasks.lengths", low=min_len, high=max_len))
    rng, make, level = random.Random(seed), TASKS[name], LEVELS[name]
    pairs, misses = [], 0
    while len(pairs) < n:
        source, target = make(rng, min_len, max_len)
        if min_len <= len(tokenize(source, level)) <= max_len:
            pairs.append((source, target))
            misses = 0
        else:
            misses += 1
            if misses == 10_000:
                raise ValueError(message("tasks.no_source", name=repr(name), low=min_len,
                                         high=max_len))
    return pairs
