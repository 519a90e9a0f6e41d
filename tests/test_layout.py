"""seq2seq's layout: the files a learner reads (models/, data/) apart from the machinery that runs
them (commands/), every file short and saying what it holds, and the public names where the docs
import them from."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "seq2seq"

# Imported alone, in a fresh interpreter: which of the project's seq2seq modules it pulled in.
LOADED = """
import importlib, sys
importlib.import_module(sys.argv[1])
print(" ".join(sorted(name for name in sys.modules if name.startswith("seq2seq."))))
"""


def loaded_with(module):
    run = subprocess.run([sys.executable, "-c", LOADED, module], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_every_seq2seq_file_is_under_300_lines_and_starts_with_a_docstring():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 40
    long = [f"{f.relative_to(ROOT)}: {n} lines" for f in files
            if (n := len(f.read_text(encoding="utf-8").splitlines())) >= 300]
    assert long == []
    silent = [str(f.relative_to(ROOT)) for f in files
              if not ast.get_docstring(ast.parse(f.read_text(encoding="utf-8")))]
    assert silent == []


def test_every_python_file_of_minigrad_and_attention_is_at_most_300_lines():
    files = sorted([*(ROOT / "minigrad").rglob("*.py"), *(ROOT / "attention").rglob("*.py")])
    assert len(files) > 60
    long = [f"{f.relative_to(ROOT)}: {n} lines" for f in files
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > 300]
    assert long == []


def test_the_top_floor_holds_the_four_folders_and_the_tools_for_a_trained_model():
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert folders == ["commands", "data", "models", "papers"]
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == [
        "__init__.py", "__main__.py", "grade.py", "heatmap.py", "metrics.py", "to_torch.py",
        "translation.py", "translator.py"]


def imported_at_the_top(folder):
    """The seq2seq modules each file of `folder` imports when it loads (its module-level imports;
    a function may import more when it runs, as heldout's error message does)."""
    found = {}
    for path in sorted((PACKAGE / folder).glob("*.py")):
        names = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                names |= ({f"{node.module}.{a.name}" for a in node.names}
                          if node.module == "seq2seq" else {node.module})
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
        found[path.name] = sorted(n for n in names if n.startswith("seq2seq"))
    return found


def test_the_models_import_only_each_other():
    found = imported_at_the_top("models")
    assert found["rnn.py"] == ["seq2seq.models.decoders", "seq2seq.models.recurrent"]
    assert {f: [n for n in names if not n.startswith("seq2seq.models.")]
            for f, names in found.items()} == {f: [] for f in found}


def test_the_data_imports_only_itself():
    found = imported_at_the_top("data")
    assert found["batching.py"] == ["seq2seq.data.vocab"]
    assert {f: [n for n in names if not n.startswith("seq2seq.data.")]
            for f, names in found.items()} == {f: [] for f in found}


def test_the_models_load_without_the_machinery():
    loaded = loaded_with("seq2seq.models")
    assert "seq2seq.models.rnn" in loaded and "seq2seq.models.decoding" in loaded
    assert [m for m in loaded if m.startswith(("seq2seq.commands", "seq2seq.data",
                                               "seq2seq.translator"))] == []


def test_the_public_names_are_the_classes_and_functions_their_modules_define():
    import seq2seq
    from seq2seq import data, models
    from seq2seq.data import corpus, tasks
    from seq2seq.models import decoders, decoding, rnn
    assert (seq2seq.Seq2Seq, seq2seq.Encoder) == (rnn.Seq2Seq, rnn.Encoder) \
        == (models.Seq2Seq, models.Encoder)
    assert (seq2seq.Decoder, seq2seq.AttentionDecoder) == (decoders.Decoder,
                                                           decoders.AttentionDecoder)
    assert (models.greedy, models.beam_search) == (decoding.greedy, decoding.beam_search)
    assert (data.make_task, data.TASKS, data.load_pairs) == (tasks.make_task, tasks.TASKS,
                                                             corpus.load_pairs)
    assert data.make_task("reverse", 2, seed=0) == tasks.make_task("reverse", 2, seed=0)
