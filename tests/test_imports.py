"""Every module of minigrad, attention and seq2seq imports on its own, in a fresh process:
no import that only works because another module happened to be imported first, no cycle that
only one import order gets through. And each keeps to its floor: no module of minigrad imports
attention or seq2seq, no module of attention imports seq2seq.

A fresh interpreter per module costs ~0.25 s, most of it NumPy's import; so one interpreter
imports NumPy and the standard library's importlib, then forks a child per module. A child
starts with none of the project's modules loaded, as a fresh interpreter would."""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("minigrad", "attention", "seq2seq")
ABOVE = {"minigrad": ("attention", "seq2seq"), "attention": ("seq2seq",)}

# Run with ABOVE (its repr) and the modules as arguments; prints one line per module: its name,
# a tab, and '' or what went wrong.
DRIVER = """
import ast, importlib, os, sys
import numpy                                    # loaded once, before every fork
ABOVE = ast.literal_eval(sys.argv[1])           # package -> the packages it must not import
for module in sys.argv[2:]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                # the child: import the module, and nothing else
        os.close(read)
        try:
            importlib.import_module(module)
            above = [name for name in ABOVE.get(module.split(".")[0], ()) if name in sys.modules]
            error = "imports " + ", ".join(above) + ", a floor above its own" if above else ""
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"
        os.write(write, error.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        error = pipe.read()
    os.waitpid(pid, 0)
    print(module + "\t" + " ".join(error.split()), flush=True)
"""


def modules():
    """Every module's dotted name, found on disk (not by importing the packages). `__main__`
    modules are left out: importing one runs its command."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__main__":
                continue
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def import_each_alone(names, path=ROOT, above=ABOVE):
    """{module: '' if it imports alone and keeps to its floor, else what went wrong}."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(path), str(ROOT)]))
    done = subprocess.run([sys.executable, "-c", DRIVER, repr(above), *names], cwd=path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return dict(line.split("\t", 1) for line in done.stdout.splitlines())


needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the driver forks (POSIX)")


def test_the_module_list_finds_every_package_and_the_renamed_modules():
    found = modules()
    for name in ("minigrad", "minigrad.ops.shapes", "minigrad.ops.embedding_and_dropout",
                 "minigrad.finite_differences", "minigrad.grade.grader", "attention.grade",
                 "seq2seq.grade", "seq2seq.models.rnn"):
        assert name in found, name
    assert "minigrad.check" not in found and "seq2seq.__main__" not in found
    assert len(found) > 60


@needs_fork
def test_every_module_imports_alone_in_a_fresh_process_and_keeps_to_its_floor():
    found = modules()
    halves = [found[0::2], found[1::2]]                 # two interpreters side by side
    with ThreadPoolExecutor(max_workers=2) as pool:
        errors = {k: v for part in pool.map(import_each_alone, halves) for k, v in part.items()}
    assert sorted(errors) == sorted(found)
    failed = {module: error for module, error in errors.items() if error}
    assert not failed, "\n".join(f"{module}: {error}" for module, error in failed.items())


@needs_fork
def test_a_module_that_imports_only_after_another_or_above_its_floor_is_named(tmp_path):
    """The check itself, on a package of its own: a module that works only when another was
    imported first fails alone; one that reaches a floor above its own is named."""
    package = tmp_path / "minigrad_fixture"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("import minigrad_fixture.second\nVALUE = 1\n")
    (package / "second.py").write_text("from minigrad_fixture.first import VALUE\n")
    errors = import_each_alone(["minigrad_fixture.first", "minigrad_fixture.second",
                                "minigrad.ops.shapes", "attention"], path=tmp_path)
    assert errors["minigrad_fixture.first"].startswith("ImportError: cannot import name 'VALUE'")
    assert errors["minigrad_fixture.second"] == ""          # first imported second's way: fine
    assert errors["minigrad.ops.shapes"] == "" and errors["attention"] == ""
    (package / "reaches_up.py").write_text("import attention\n")
    errors = import_each_alone(["minigrad_fixture.reaches_up", "minigrad_fixture.second"],
                               path=tmp_path, above={"minigrad_fixture": ("attention",)})
    assert errors == {"minigrad_fixture.reaches_up": "imports attention, a floor above its own",
                      "minigrad_fixture.second": ""}
