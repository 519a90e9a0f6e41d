"""The three explore commands write a page, refuse to replace a file without --overwrite, and
turn predict mode on with --predict; each error is one line on stderr."""

import pytest

from minigrad.viz.__main__ import main as viz_main
from attention.__main__ import main as attention_main
from seq2seq.commands.cli import main as seq2seq_main
from tests.test_explorer import page_data


def read(path):
    return page_data(path.read_text(encoding="utf-8"))


def test_attention_explore_writes_the_worked_example(tmp_path, capsys):
    out = tmp_path / "step.html"
    assert attention_main(["explore", "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    data = read(out)
    assert len(data["steps"]) == 6 and data["questions"] == []
    names = {t["name"] for t in data["tensors"]}
    assert {"q", "keys", "values", "weights", "context"} <= names
    assert attention_main(["explore", "--out", str(out), "--predict", "--overwrite"]) == 0
    assert len(read(out)["questions"]) >= 4


def test_an_existing_file_is_refused_in_one_line_without_overwrite(tmp_path, capsys):
    out = tmp_path / "notes.html"
    out.write_text("mine")
    assert attention_main(["explore", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {out} exists; pass --overwrite to replace it\n"   # said once
    assert out.read_text() == "mine"


def test_a_page_into_a_missing_folder_says_how_to_make_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert attention_main(["explore", "--out", "nodir/step.html"]) == 1
    assert capsys.readouterr().err == ("error: cannot write 'nodir/step.html': no directory "
                                       "'nodir' (create it first: mkdir -p nodir)\n")
    assert not (tmp_path / "nodir").exists()


@pytest.mark.parametrize("args, words", [
    (["--out", "x.svg"], "ending in .html"),
    (["--random", "0"], "--random must be an integer in [1, 256], got 0"),
    (["--random", "2", "--seed", "-1"], "--seed must be an integer >= 0, got -1"),
    (["--random", "10000", "--keys", "1000"], "--random must be an integer in [1, 256], got "
                                              "10000 (a drawing or a page shows every number"),
    (["--random", "2", "--dim", "1000"], "--dim must be an integer in [1, 256], got 1000"),
])
def test_attention_explore_bad_options_are_one_line(args, words, tmp_path, capsys,
                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert attention_main(["explore", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and err.count("\n") == 1


@pytest.mark.parametrize("args", [["--random", "2", "--keys", "0"],
                                  ["--random", "2", "--value-dim", "-3"],
                                  ["--random", "2", "--seed", "-1"]])
def test_attention_draw_and_explore_check_their_shared_options_alike(args, tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    errors = []
    for command in ("draw", "explore"):
        assert attention_main([command, *args]) == 1
        errors.append(capsys.readouterr().err)
    assert errors[0] == errors[1] and errors[0].startswith("error: --")
    assert list(tmp_path.iterdir()) == []                   # nothing written


def test_minigrad_viz_explore_lstm_cell(tmp_path, capsys):
    out = tmp_path / "cell.html"
    assert viz_main(["explore", "lstm-cell", "--out", str(out), "--predict"]) == 0
    data = read(out)
    assert {"weight_ih", "weight_hh", "x", "h", "c"} <= {t["name"] for t in data["tensors"]}
    assert data["scopes"] == [["lstm cell"]] and data["questions"]
    assert viz_main(["explore", "lstm-cell", "--out", str(out)]) == 1
    assert "pass --overwrite" in capsys.readouterr().err


def test_seq2seq_explore_a_trained_run(tiny_run, tmp_path, capsys):
    out = tmp_path / "decoder-step.html"
    assert seq2seq_main(["explore", str(tiny_run), "--sentence", "3 1 4", "--step", "1",
                         "--out", str(out), "--predict"]) == 0
    assert out.stat().st_size < 2_000_000
    data = read(out)
    assert data["title"].startswith("Decoder step 1 of '3 1 4'")
    assert sorted(data["scopes"][k] for k in data["folded"]) == [["decoder lstm"], ["encoder"]]
    assert data["questions"]
    assert seq2seq_main(["explore", str(tiny_run), "--out", str(out)]) == 1
    assert "pass --overwrite" in capsys.readouterr().err
    assert seq2seq_main(["explore", str(tiny_run), "--out", str(out), "--max-elements", "-1",
                         "--overwrite"]) == 1
    assert "--max-elements must be an integer >= 0" in capsys.readouterr().err
    assert seq2seq_main(["explore", str(tiny_run), "--out", str(out), "--max-bytes", "0",
                         "--overwrite"]) == 0
    assert all(a["data"] is None for a in read(out)["arrays"])     # summaries only


@pytest.mark.parametrize("command, out", [("explore", "step.html"), ("draw", "step.svg")])
def test_seq2seq_collapse_of_an_unknown_scope_is_an_error_listing_the_scopes(
        command, out, tiny_run, tmp_path, capsys):
    out = tmp_path / out
    assert seq2seq_main([command, str(tiny_run), "--out", str(out),
                         "--collapse", "encoder", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --collapse names no scope 'nosuch' of this graph; its "
                          "scopes: ") and err.count("\n") == 1
    for scope in ("'encoder'", "'decoder lstm'", "'attention'", "'loss'"):
        assert scope in err
    assert not out.exists()


def answered_from(data, q):
    """The arrays a learner answers question q from, on the page: the gradient arriving at the
    op of its step, the values of that op's inputs and output, and, for a whole gradient, the
    total the tensor had received before."""
    step = data["steps"][q["step"] - 1]
    op = data["ops"][step["op"]]
    refs = [step["grad_y"]] + [data["tensors"][i]["values"] for i in op["inputs"] + [op["output"]]]
    earlier = [term for term in data["tensors"][q["tensor"]]["terms"] if term[0] < q["step"]]
    if q["total"] and earlier:
        refs.append(earlier[-1][2])
    return refs


def test_every_question_of_the_real_model_pages_is_answerable_from_the_page(tiny_run, tmp_path):
    from minigrad.viz import explore
    from minigrad.viz.__main__ import LSTMCellConfig, lstm_cell_step

    pages = {}
    for name, args in [("seq2seq", []), ("seq2seq small", ["--max-elements", "100"])]:
        out = tmp_path / f"{name}.html"
        assert seq2seq_main(["explore", str(tiny_run), "--step", "1", "--predict", "--out",
                             str(out), *args]) == 0
        pages[name] = read(out)
    out = tmp_path / "cell.html"
    assert viz_main(["explore", "lstm-cell", "--predict", "--out", str(out)]) == 0
    pages["lstm-cell"] = read(out)
    loss, cell, _ = lstm_cell_step(LSTMCellConfig(input_size=3, hidden_size=4, batch=2))
    pages["lstm-cell small"] = explore(loss, names=cell, predict=True, max_elements=40).data
    for name, data in pages.items():
        assert data["questions"], name
        for q in data["questions"]:
            for ref in answered_from(data, q):
                assert data["arrays"][ref]["data"] is not None, (name, q["step"], ref)
    # Those whose arrays are too large to embed are not asked at all.
    assert len(pages["seq2seq small"]["questions"]) < len(pages["seq2seq"]["questions"])
    full = explore(loss, names=cell, predict=True)
    assert len(pages["lstm-cell small"]["questions"]) < len(full.questions)


def real_pages(tmp_path, *runs):
    """The predict-mode pages of the real models: the attention step, the LSTM cell, and a
    decoder step of each run."""
    pages = {}
    out = tmp_path / "attention.html"
    assert attention_main(["explore", "--predict", "--out", str(out)]) == 0
    pages["attention"] = read(out)
    out = tmp_path / "cell.html"
    assert viz_main(["explore", "lstm-cell", "--predict", "--out", str(out)]) == 0
    pages["lstm-cell"] = read(out)
    for n, run in enumerate(runs):
        out = tmp_path / f"run{n}.html"
        assert seq2seq_main(["explore", str(run), "--step", "1", "--predict", "--out",
                             str(out)]) == 0
        pages[run.name] = read(out)
    return pages


def test_a_whole_gradient_question_is_neither_the_sum_so_far_nor_one_term(
        tiny_run, composed_run, tmp_path):
    """The box of a tensor used several times shows its sum so far before the question's step,
    and each term alone is the missed-sum mistake: the answer must differ from both."""
    from tests.test_explorer import array
    asked = 0
    for name, data in real_pages(tmp_path, tiny_run, composed_run).items():
        for q in data["questions"]:
            if not q["total"]:
                continue
            asked += 1
            i, terms = tuple(q["index"]), data["tensors"][q["tensor"]]["terms"]
            before = [t for t in terms if t[0] < q["step"]]
            shown = [array(data, t[1])[i] for t in terms]
            shown += [array(data, before[-1][2])[i]] if before else []
            for value in shown + [m["value"] for m in q["mistakes"]]:
                assert abs(value - q["answer"]) > q["tolerance"], (name, q["step"], value)
    assert asked >= 3


def test_seq2seq_draw_twice_to_one_name_refuses_the_second_unless_overwrite(tiny_run, tmp_path,
                                                                             capsys):
    """As explore does: a drawing there, even the command's own, is replaced only with
    --overwrite."""
    out = tmp_path / "decoder-step.svg"
    assert seq2seq_main(["draw", str(tiny_run), "--sentence", "3 1 4", "--out", str(out)]) == 0
    first = out.read_bytes()
    out.write_bytes(b"<svg>kept</svg>")
    assert seq2seq_main(["draw", str(tiny_run), "--sentence", "3 1 4", "--out", str(out)]) == 1
    assert capsys.readouterr().err.endswith(
        f"error: {out} exists; pass --overwrite to replace it\n")
    assert out.read_bytes() == b"<svg>kept</svg>"
    assert seq2seq_main(["draw", str(tiny_run), "--sentence", "3 1 4", "--out", str(out),
                         "--overwrite"]) == 0
    assert out.read_bytes() == first


@pytest.mark.parametrize("command", ["draw", "explore"])
@pytest.mark.parametrize("args, line", [
    (["--keys", "5"], "error: --keys goes with --random; the worked example does not use it"),
    (["--dim", "3"], "error: --dim goes with --random; the worked example does not use it"),
    (["--value-dim", "3"], "error: --value-dim goes with --random; the worked example does "
                           "not use it"),
    (["--hard", "--keys", "5"], "error: --keys goes with --random; the worked example does not "
                                "use it"),
])
def test_a_size_without_random_is_refused_in_one_line(command, args, line, tmp_path, capsys,
                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert attention_main([command, *args]) == 1
    assert capsys.readouterr().err == line + "\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, also", [("draw", ""), ("explore", ", --self or --block")])
def test_a_seed_without_random_is_refused_in_one_line(command, also, tmp_path, capsys,
                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert attention_main([command, "--seed", "3"]) == 1
    assert capsys.readouterr().err == (f"error: --seed goes with --random{also}; the worked "
                                       "example has no random numbers\n")
    assert list(tmp_path.iterdir()) == []


def test_the_sizes_and_the_seed_still_change_a_random_page(tmp_path):
    pages = []
    for extra in ([], ["--keys", "5"], ["--seed", "3"], ["--dim", "3"], ["--value-dim", "1"]):
        out = tmp_path / f"page{len(pages)}.html"
        assert attention_main(["explore", "--random", "2", *extra, "--out", str(out)]) == 0
        pages.append(out.read_text(encoding="utf-8"))
    assert len(set(pages)) == len(pages)                    # each option changes the page
    assert attention_main(["explore", "--random", "2", "--keys", "4", "--seed", "0", "--out",
                           str(tmp_path / "same.html")]) == 0
    assert (tmp_path / "same.html").read_text(encoding="utf-8") == pages[0]   # the defaults


@pytest.mark.parametrize("page", ["--self", "--block"])
def test_the_seed_still_changes_the_self_and_block_pages(page, tmp_path):
    texts = []
    for seed in ([], ["--seed", "3"], ["--seed", "0"]):
        out = tmp_path / f"page{len(texts)}.html"
        assert attention_main(["explore", page, *seed, "--out", str(out)]) == 0
        texts.append(out.read_text(encoding="utf-8"))
    assert texts[0] != texts[1] and texts[0] == texts[2]


def test_seq2seq_explore_takes_max_ops(transformer_run, tmp_path, capsys):
    """A step larger than the default limit had no way to be explored from the command line."""
    from seq2seq.commands.cli import main
    out = tmp_path / "step.html"
    assert main(["explore", str(transformer_run), "--max-ops", "10", "--out", str(out)]) == 1
    assert "more than --max-ops 10" in capsys.readouterr().err
    assert main(["explore", str(transformer_run), "--max-ops", "100000", "--out",
                 str(out)]) == 0
    assert out.exists()
