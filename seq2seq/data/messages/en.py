"""The data's messages in English (seq2seq.data.corpus, tasks, heldout). Japanese: ja.py, with
the same keys."""

MESSAGES = {
    # ---- a pairs file (seq2seq.data.corpus) ---------------------------------------------------
    "corpus.not_utf8": "{where}: not UTF-8 text (byte 0x{byte:02x} at column {column})",
    "corpus.file_empty": "{where}: no pairs, the file is empty; expected 'source{sep}target' lines",
    "corpus.lines_empty": ("{where}: no pairs, all {count} lines are empty; expected "
                           "'source{sep}target' lines"),
    "what.pairs": "a pairs file",
    "corpus.too_big": "{path}: {size}, more than the {most} a pairs file may have",
    "corpus.too_many_lines": ("{path}: {lines} lines, more than the {most} pairs a pairs file may "
                              "have"),
    "corpus.too_much_memory": ("{path}: {lines} lines, {size}: read and made ready to train on, "
                               "they would take about {need}, more than the {limit} of memory "
                               "available"),
    "corpus.long_line": ("{where}: line longer than {most} bytes, the limit for a line of a pairs "
                         "file"),
    "corpus.columns_found": ("{where}: found {count} columns separated by {sep} in {line}, "
                             "expected 2 (source, target)"),
    "corpus.columns_hint": ("{plain}; to train on two of them, choose them with --columns (a "
                            "Tatoeba/Anki export: --columns 1,2)"),
    "corpus.no_sep": "{where}: expected 'source{escaped}target', found no {sep} in {line}",
    "corpus.sep_hint": "; if the columns are separated by something else, give it with --sep",
    "corpus.sep_hint_other": ("; if the columns are separated by something else, give it with "
                              "--sep {other}"),
    "corpus.needs_columns": ("{where}: --columns {first},{second} needs {most} columns, found "
                             "{count} in {line}"),
    "corpus.empty_both": "{where}: empty source and target in {line}",
    "corpus.empty_source": "{where}: empty source in {line}",
    "corpus.empty_target": "{where}: empty target in {line}",
    "corpus.control_source": ("{where}: the source holds the control character {char}, which a "
                              "sentence has none of, in {line}"),
    "corpus.control_target": ("{where}: the target holds the control character {char}, which a "
                              "sentence has none of, in {line}"),
    "corpus.reserved": ("{where}: {token} is a reserved token at the word level ({specials} mark "
                        "padding, start, end and unknown words); rewrite it, or train at the "
                        "character level"),
    "corpus.columns_syntax": ("takes two column numbers from 1, the source's first, such as 1,2; "
                              "got {text}"),
    "corpus.columns_same": "{text}: the source and the target are the same column",
    "corpus.val_fraction": "val_fraction must be in [0, 1), got {value}",

    # ---- the built-in tasks and the held-out record (seq2seq.data.tasks, heldout) -------------
    "tasks.toy_too_short": ("toy-ja-en sentences have at least 3 words, max_len={max_len} is too "
                            "short"),
    "tasks.unknown": "unknown task {name}; the tasks are: {tasks}",
    "tasks.lengths": "need 1 <= min_len <= max_len, got min_len={low}, max_len={high}",
    "tasks.no_source": "task {name} makes no source of length {low}..{high}",
    "vocab.specials": "a vocabulary must start with {specials}, this one starts with {found}",
    "vocab.repeated": "a vocabulary must not repeat a token",
    "heldout.other_hash": ("{file}: its 'split.hash' entry is {found}: its hashes were made "
                           "another way than this version makes them, {hash}"),

    # ---- the sample pairs file's script (examples/numbers.py) ---------------------------------
    "sample.error": "error: {message}",
    "sample.cannot_read": "cannot read {out}: {reason}",
    "sample.cannot_write": "cannot write {out}: {reason}",
    "sample.checked": "{out}: the {count:,} pairs this script writes, byte for byte",
    "sample.check_missing": "{out}: no such file; run this script without --check to write it",
    "sample.check_differs": ("{out}: differs from what this script writes; run this script "
                             "without --check to write it"),
    "sample.already": "{out} is already what this script writes: left as it is",
    "sample.edited": ("{out} holds something else than this script writes (an edited copy?): "
                      "pass --overwrite to replace it, or choose another --out"),
    "sample.wrote": "wrote {out}: {count:,} pairs",
    "sample.dangling": "--out {path} is a symlink to nothing ({target}): name a file",
    "sample.not_a_file": "--out {path} is {kind}: name a file",
    "sample.folder": "a folder",
    "sample.fifo": "a FIFO",
    "sample.device": "a device",
    "sample.socket": "a socket",
    "sample.not_regular": "not a regular file",
}
