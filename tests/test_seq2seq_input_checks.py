"""`python -m seq2seq` is never silently wrong about its input: a pairs file with a third
column, old Mac line ends or a reserved word, a tokenisation level that reads nothing, a figure
label with dollar signs, an unknown space, a source longer than any trained on, a learning rate
that blows the weights up: each is refused or said, in one line."""

import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.commands.train import TrainConfig, train

TINY = ["--embed-size", "4", "--hidden-size", "8", "--batch-size", "32", "--no-progress"]


def _lines(text):
    return text.strip().splitlines()


# ---- pairs files ---------------------------------------------------------------------------

ANKI = "".join(f"{s}\t{t}\tCC-BY 2.0 (France) Attribution: tatoeba.org #{i} (CM)\n"
               for i, (s, t) in enumerate([("Go.", "Va !"), ("Hi.", "Salut !"),
                                           ("Run!", "Cours !"), ("Wow!", "Ça alors !")] * 5))


def test_train_refuses_a_third_column_naming_the_file_the_line_and_columns(tmp_path, capsys):
    corpus = tmp_path / "fra.txt"
    corpus.write_text(ANKI, encoding="utf-8")
    status = main(["train", "--task", str(corpus), "--epochs", "1", *TINY,
                   "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert status == 1 and len(_lines(err)) == 1, err
    assert err.startswith(f"error: {corpus}:1: found 3 columns separated by '\\t' in 'Go.")
    assert "--columns 1,2" in err
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_train_with_columns_trains_on_them_and_resume_keeps_them(tmp_path, capsys):
    corpus, out = tmp_path / "fra.txt", tmp_path / "run"
    corpus.write_text(ANKI, encoding="utf-8")
    assert main(["train", "--task", str(corpus), "--columns", "1,2", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    state = minigrad.load(out / "checkpoint.npz")
    assert state["config"]["columns"] == "1,2"
    assert "Attribution:" not in "".join(state["tgt_vocab"]["tokens"])
    assert set("Salut !") <= set(state["tgt_vocab"]["tokens"])
    capsys.readouterr()
    status = main(["train", "--task", str(corpus), "--columns", "2,1", "--epochs", "2", *TINY,
                   "--out", str(out), "--resume"])
    err = capsys.readouterr().err
    assert status == 1 and f"--columns 2,1 (saved: 1,2 for {corpus})" in err, err
    assert main(["train", "--task", str(corpus), "--columns", "1,1", "--out",
                 str(tmp_path / "other")]) == 1
    assert capsys.readouterr().err.startswith("error: --columns 1,1: the source and the target")


def test_resume_of_a_pairs_file_run_takes_its_own_columns_and_sep(tmp_path, capsys):
    corpus, out = tmp_path / "three.tsv", tmp_path / "run"
    corpus.write_text(ANKI.replace("\t", ","), encoding="utf-8")
    assert main(["train", "--task", str(corpus), "--sep", ",", "--columns", "1,2",
                 "--epochs", "1", *TINY, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["train", "--out", str(out), "--resume", "--columns", "1,2", "--sep", ",",
                 "--epochs", "2", "--no-progress"]) == 0        # the run's own values: accepted
    assert "resuming after epoch 1" in capsys.readouterr().out
    assert len(minigrad.load(out / "checkpoint.npz")["history"]) == 2
    for changed, shown in ((["--columns", "1,3"], f"--columns 1,3 (saved: 1,2 for {corpus})"),
                           (["--sep", ";"], f"--sep ; (saved: , for {corpus})")):
        status = main(["train", "--out", str(out), "--resume", *changed, "--epochs", "3"])
        err = capsys.readouterr().err
        assert status == 1 and len(_lines(err)) == 1, err
        assert f"error: cannot resume {out} with other settings" in err and shown in err, err
        assert "built-in task" not in err


def test_resume_of_a_built_in_task_run_refuses_columns_naming_that_task(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "--task", "reverse", "--num-examples", "40", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["train", "--out", str(out), "--resume", "--columns", "1,2"]) == 1
    assert capsys.readouterr().err == ("error: --columns applies only to a pairs file (--task "
                                       "FILE), not to the built-in task reverse: leave it out\n")


def test_evaluate_reads_a_file_with_columns(tmp_path, capsys):
    corpus, out = tmp_path / "fra.txt", tmp_path / "run"
    corpus.write_text(ANKI, encoding="utf-8")
    assert main(["train", "--task", str(corpus), "--columns", "1,2", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(out), "--task", str(corpus)]) == 1
    assert "found 3 columns" in capsys.readouterr().err
    assert main(["evaluate", str(out), "--task", str(corpus), "--columns", "1,2"]) == 0
    assert capsys.readouterr().out.startswith("examples         20")


def test_a_file_with_old_mac_line_ends_trains_on_every_pair(tmp_path, capsys):
    corpus, out = tmp_path / "pairs.txt", tmp_path / "run"
    pairs = [(f"{i:03d}", f"{i:03d}"[::-1]) for i in range(40)]
    corpus.write_bytes("".join(f"{s}\t{t}\r" for s, t in pairs).encode())
    assert main(["train", "--task", str(corpus), "--epochs", "1", *TINY, "--out",
                 str(out)]) == 0
    split = minigrad.load(out / "checkpoint.npz")["split"]
    assert len(split["val_pairs"]) == 4 and len(split["train_sources"]) == 36


def test_a_split_without_validation_pairs_says_so(tmp_path, capsys):
    corpus = tmp_path / "pairs.txt"
    corpus.write_text("ab\tba\ncd\tdc\nab\tbb\n", encoding="utf-8")
    assert main(["train", "--task", str(corpus), "--epochs", "1", *TINY, "--out",
                 str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert ("warning: no validation pairs: --val-fraction 0.1 of 2 distinct sources holds out "
            "none, so no epoch is scored") in out


def test_word_level_training_refuses_a_reserved_word_and_translate_too(tmp_path, capsys):
    corpus, out = tmp_path / "pairs.txt", tmp_path / "run"
    corpus.write_text("the cat\tle chat\n" * 10 + "the <pad> dog\tle chien\n", encoding="utf-8")
    status = main(["train", "--task", str(corpus), "--level", "word", "--epochs", "1", *TINY,
                   "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 1 and len(_lines(err)) == 1
    assert err.startswith(f"error: {corpus}:11: '<pad>' is a reserved token at the word level")
    corpus.write_text("the cat\tle chat\n" * 10 + "the dog\tle chien\n", encoding="utf-8")
    assert main(["train", "--task", str(corpus), "--level", "word", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["translate", str(out), "the <eos> cat"]) == 1
    assert capsys.readouterr().err.startswith("error: the text holds '<eos>', a token reserved")


# ---- the tokenisation level ----------------------------------------------------------------

def _letters(path, n=200):
    """Sentences of single letters, reversed: words a character-level run reads letter by letter
    and space by space."""
    import random
    rng = random.Random(1)
    lines = []
    for _ in range(n):
        words = [rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 6))]
        lines.append(" ".join(words) + "\t" + " ".join(reversed(words)) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_training_on_a_file_says_its_level_and_that_every_output_is_blank(tmp_path, capsys):
    corpus, out = _letters(tmp_path / "letters.tsv"), tmp_path / "run"
    assert main(["train", "--task", str(corpus), "--epochs", "2", "--lr", "1e-2", *TINY,
                 "--out", str(out)]) == 0
    printed = _lines(capsys.readouterr().out)
    assert printed[0] == ("tokens: characters, spaces included (the default for a pairs file); "
                          "--level word makes each word a token")
    assert printed[-3].endswith("(every output blank)")
    assert printed[-2] == ("warning: every one of the 20 validation outputs is blank (empty or "
                           "only spaces); every space is a token it must learn to place, so a "
                           "file of words may want --level word")
    assert main(["evaluate", str(out)]) == 0
    assert capsys.readouterr().err == ("warning: every one of the 20 outputs is blank (empty or "
                                       "only spaces)\n")
    assert main(["translate", str(out), "a b c"]) == 0
    assert capsys.readouterr().err.startswith("note: the translation is ")
    assert main(["train", "--task", str(corpus), "--level", "word", "--epochs", "1", *TINY,
                 "--out", str(tmp_path / "words")]) == 0
    assert _lines(capsys.readouterr().out)[0] == "tokens: words, split at whitespace (--level word)"


# ---- figure labels -------------------------------------------------------------------------

MATH = ["$x^2$", "$\\frac{a}{$", "a_b"]          # mathtext, broken mathtext, a LaTeX subscript


def _texts_with_dollars(figure):
    import matplotlib.text
    return [t for t in figure.findobj(matplotlib.text.Text) if "$" in t.get_text()]


def test_heatmap_labels_and_title_are_drawn_as_written_not_as_mathtext(tmp_path):
    import numpy as np

    from attention.figures import plot_heads
    from seq2seq.heatmap import plot_heatmap
    from seq2seq.papers.plots import plot_translations
    from seq2seq.translation import Translation
    weights = np.full((3, 3), 1 / 3)
    figures = [plot_heatmap(weights, MATH, MATH, tmp_path / "a.png", title=" ".join(MATH)),
               plot_heads(weights[None], MATH, MATH, tmp_path / "b.png", title="$x^2$",
                          titles=["$\\frac{a}{$"]),
               plot_translations([Translation(" ".join(MATH), MATH, MATH, weights)],
                                 tmp_path / "c.png", title="$\\frac{a}{$")]
    for figure in figures:
        texts = _texts_with_dollars(figure)
        assert {t.get_text() for t in texts} >= {"$x^2$", "$\\frac{a}{$"}
        assert all(not t.get_parse_math() and not t.get_usetex() for t in texts)
    assert all((tmp_path / name).stat().st_size > 0 for name in ("a.png", "b.png", "c.png"))


def test_translate_plot_draws_a_model_that_writes_dollar_tokens(tmp_path, capsys):
    corpus, out = tmp_path / "pairs.txt", tmp_path / "run"
    corpus.write_text("$x^2$ $\\frac{a}{$ b\tb $\\frac{a}{$ $x^2$\n" * 20, encoding="utf-8")
    assert main(["train", "--task", str(corpus), "--level", "word", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["translate", str(out), "$x^2$ $\\frac{a}{$ b", "--plot",
                 str(tmp_path / "h.png")]) == 0
    assert capsys.readouterr().err == ""
    assert (tmp_path / "h.png").stat().st_size > 0


# ---- translate's notes -------------------------------------------------------------------

def test_translate_shows_unknown_spaces_and_warns_past_the_longest_trained_source(tmp_path,
                                                                                  capsys):
    out = tmp_path / "run"
    assert main(["train", "--task", "reverse", "--num-examples", "200", "--min-len", "3",
                 "--max-len", "8", "--epochs", "1", *TINY, "--out", str(out)]) == 0
    assert minigrad.load(out / "checkpoint.npz")["longest_source"] == 8
    capsys.readouterr()
    assert main(["translate", str(out), "3 1 4 1"]) == 0
    assert capsys.readouterr().err == ("note: 3 of 7 source tokens are not in the model's "
                                       "vocabulary and were read as <unk>: ' ', ' ', ' '\n")
    assert main(["translate", str(out), "12345678"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["translate", str(out), "123456789012"]) == 0
    assert capsys.readouterr().err == ("warning: the source has 12 tokens, more than the longest "
                                       "the run trained on (8): beyond that length the model was "
                                       "never taught\n")


def test_sep_and_columns_with_a_built_in_task_are_refused_not_ignored(tmp_path, capsys):
    out = tmp_path / "run"
    for given, options in (("--columns", ["--columns", "2,1"]), ("--sep", ["--sep", "XX"]),
                           ("--sep and --columns", ["--sep", ";", "--columns", "1,2"])):
        status = main(["train", "--task", "reverse", "--num-examples", "40", "--epochs", "1",
                       *options, *TINY, "--out", str(out)])
        err = capsys.readouterr().err
        assert status == 1 and len(_lines(err)) == 1, err
        assert err.startswith(f"error: {given} appl") and "only to a pairs file (--task " \
            "FILE), not to the built-in task reverse" in err, err
        assert not out.exists()
    assert main(["train", "--task", "reverse", "--num-examples", "40", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    capsys.readouterr()
    for task, words in ((["--task", "reverse"], "not to the built-in task reverse"),
                        ([], "not to the recorded validation pairs")):
        assert main(["evaluate", str(out), *task, "--columns", "1,2"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: --columns applies only to a pairs file") and words in err


def test_a_sep_given_its_default_value_a_tab_is_refused_as_any_other(tmp_path, capsys):
    out = tmp_path / "run"
    status = main(["train", "--task", "reverse", "--num-examples", "40", "--epochs", "1",
                   "--sep", "\t", *TINY, "--out", str(out)])
    assert status == 1 and capsys.readouterr().err == (
        "error: --sep applies only to a pairs file (--task FILE), not to the built-in task "
        "reverse: leave it out\n")
    assert not out.exists()
    assert main(["train", "--task", "reverse", "--num-examples", "40", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    capsys.readouterr()
    for task, words in ((["--task", "reverse"], "not to the built-in task reverse"),
                        ([], "not to the recorded validation pairs")):
        assert main(["evaluate", str(out), *task, "--sep", "\t"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: --sep applies only to a pairs file") and words in err, err
    assert main(["train", "--out", str(out), "--resume", "--sep", "\t", "--epochs", "2"]) == 1
    assert capsys.readouterr().err.startswith("error: --sep applies only to a pairs file")
    corpus = tmp_path / "pairs.tsv"                 # a pairs file: the default tab, unwritten
    corpus.write_text("".join(f"{w}\t{w[::-1]}\n" for w in ("abc", "bca", "cab", "acb")),
                      encoding="utf-8")
    assert main(["evaluate", str(out), "--task", str(corpus)]) == 0


def test_the_blank_output_warning_of_a_built_in_task_does_not_offer_a_level():
    """A built-in task's level is its own: --level word helps only a file of words."""
    from seq2seq.commands.progress import blank_warning
    assert blank_warning(20, "char", "reverse") == (
        "warning: every one of the 20 validation outputs is blank (empty or only spaces); more "
        "epochs or another --lr may help")
    assert blank_warning(20, "char", "my.tsv").endswith("a file of words may want --level word")


def test_options_that_generate_a_built_in_task_are_refused_with_a_pairs_file(tmp_path, capsys):
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{w}\t{w[::-1]}\n" for w in WORDS), encoding="utf-8")
    out = tmp_path / "run"
    for option, value in (("--num-examples", "10"), ("--min-len", "2"), ("--max-len", "3")):
        assert main(["train", "--task", str(corpus), option, value, "--epochs", "1", *TINY,
                     "--out", str(out)]) == 1
        assert capsys.readouterr().err == (
            f"error: {option} applies only to a built-in task (it generates the pairs), not to "
            f"the pairs file {corpus}, every line of which is read: leave it out\n")
        assert not out.exists()
    assert main(["train", "--task", str(corpus), "--epochs", "1", *TINY, "--out",
                 str(out)]) == 0
    capsys.readouterr()
    assert main(["train", "--out", str(out), "--resume", "--epochs", "2", "--num-examples",
                 "10"]) == 1                                # the run's own task: a pairs file
    assert capsys.readouterr().err.startswith("error: --num-examples applies only to a built-in")
    assert len(minigrad.load(out / "checkpoint.npz")["history"]) == 1


@pytest.mark.parametrize("setting, value", [("num_examples", 10), ("min_len", 2),
                                            ("max_len", 3)])
def test_train_in_python_refuses_an_option_that_generates_a_built_in_task_with_a_pairs_file(
        tmp_path, setting, value):
    """As the command line does, in its words, with the setting spelt as TrainConfig spells it:
    a pairs file is read whole, and the setting would be ignored."""
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{w}\t{w[::-1]}\n" for w in WORDS), encoding="utf-8")
    config = TrainConfig(task=str(corpus), out=str(tmp_path / "run"), epochs=1, embed_size=4,
                         hidden_size=8, batch_size=32, progress=False, **{setting: value})
    with pytest.raises(ValueError) as refused:
        train(config, log=lambda line: None)
    assert str(refused.value) == (
        f"{setting} applies only to a built-in task (it generates the pairs), not to the pairs "
        f"file {corpus}, every line of which is read: leave it out")
    assert not (tmp_path / "run").exists()


WORDS = ("abc", "bca", "cab", "acb", "hello", "world", "tree", "sun", "moon", "star", "sky",
         "sea", "red", "blue", "cat", "dog", "owl", "fox", "ant", "bee")
