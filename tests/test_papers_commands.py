"""The reproductions' commands (seq2seq.papers) follow the project's rules: bad settings are one
line on stderr before anything is trained or written, and an experiment replaces its own earlier
run and nothing else. Tiny budgets: these check the rules, not the papers' claims (the
test_papers_*.py files do that)."""

import pytest

from seq2seq.commands.cli import main
from seq2seq.commands.runs import RunFolderError
from seq2seq.papers.alignments import alignments

from test_runs import one_error_line, quiet, tiny


@pytest.mark.parametrize("argv,words", [
    (["compare-lengths", "--max-len", "10", "--test-max-len", "8"], "--test-max-len 8"),
    (["compare-lengths", "--test-max-len", "0"], "--test-max-len"),
    (["compare-lengths", "--task", "pairs.tsv"], "built-in task"),
    (["compare-lengths", "--num-examples", "1"], "--num-examples must be at least 100 for "
     "compare-lengths, got 1: on fewer pairs neither model learns the task"),
    (["uniform-and-seeds", "--seeds", "1"], "--seeds"),
    (["uniform-and-seeds", "--seeds", "11"], "--seeds"),
    (["head-alignments", "--seeds", "1"], "--seeds must be an integer in [2, 10], got 1"),
    (["head-alignments", "--seeds", "11"], "--seeds"),
    (["head-alignments", "--epochs", "0"], "--epochs"),
    (["compare-scoring", "--task", "pairs.tsv"], "built-in task"),
    (["compare-scoring", "--epochs", "0"], "--epochs"),
])
def test_bad_settings_are_one_line_and_nothing_is_made(tmp_path, capsys, argv, words):
    out = tmp_path / "experiment"
    assert main([*argv, "--out", str(out)]) == 1
    assert words in one_error_line(capsys)
    assert not out.exists()


def test_every_reproduction_is_a_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    printed = capsys.readouterr().out
    for command in ("compare-lengths", "alignments", "head-alignments", "uniform-and-seeds",
                    "compare-scoring", "compare-architectures", "compare-positions",
                    "compare-norms"):
        assert command in printed


def tiny_alignments(out):
    return {"reverse": tiny(out / "reverse"),
            "toy-ja-en": tiny(out / "toy-ja-en", task="toy-ja-en", max_len=6)}


def test_alignments_replaces_its_own_run_and_nothing_else(tmp_path):
    out = tmp_path / "alignments"
    first = alignments(out, configs=tiny_alignments(out), n_held_out=30, log=quiet)
    assert first["experiment"] == "alignments" and "digits" in first["reverse"]
    assert set(first["toy-ja-en"]) == {"sentences", "exact_match", "crossing verb",
                                       "content words"}
    lines = []
    alignments(out, configs=tiny_alignments(out), n_held_out=30, log=lines.append)
    assert f"replacing the earlier alignments run in {out}" in lines
    (out / "notes.txt").write_text("mine")
    with pytest.raises(RunFolderError, match="--overwrite"):
        alignments(out, configs=tiny_alignments(out), n_held_out=30, log=quiet)
    alignments(out, configs=tiny_alignments(out), n_held_out=30, log=quiet, overwrite=True)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "alignments.png").read_bytes()[:4] == b"\x89PNG"
