"""A recurrent layer from the user's own file, `--rnn my_gru.py:GRU`, and how a run keeps it.

A checkpoint holds arrays and JSON, never code (no pickle). A model whose layer is a class from
a file is saved with a record of that file instead (`record`):

    {"file": "/home/me/my_gru.py", "class": "GRU", "sha256": "9f2c..."}

the file's absolute path and the SHA-256 hash of its bytes. Whatever loads the run again
(evaluate, translate, draw, train --resume) runs the file again only if it is still there and
its bytes hash the same (`class_of`): the class that rebuilds the model is then the very code
that trained it. A missing or changed file is refused with one line that says which and what to
do, rather than loading the weights into a layer that might compute something else. (Only that
file is hashed: if it imports another file of yours, a change there goes unnoticed.)

The file runs with its own folder first on `sys.path` (while it runs, at train and at load
alike), so `from mycell import gru_cell` finds a mycell.py beside it from whatever folder the
command runs in. A module imported only inside a function, later, is looked up on the usual path.

Loading a run that records a file runs that file, as importing it would: load only runs you
trust.
"""

import hashlib
import importlib.util
import inspect
import sys
import traceback
from pathlib import Path

from minigrad.command import exit_call

FORM = "FILE.py:CLASS (e.g. my_gru.py:GRU)"


class RnnFileError(ValueError):
    """The layer's file cannot be used: missing, changed, broken, or without the class."""


class RnnFileChanged(RnnFileError):
    """The layer's file hashes otherwise than the one the model was trained with."""


def resolved(rnn):
    """--rnn as a run keeps it: None (the LSTM), or 'ABSOLUTE/PATH.py:CLASS' for a spec whose
    file exists, or for a class defined in a file. Anything else is a RnnFileError."""
    if rnn is None:
        return None
    if isinstance(rnn, type):
        module = sys.modules.get(rnn.__module__)
        in_a_file = (module is not None and module.__name__ != "__main__"
                     and getattr(module, rnn.__name__, None) is rnn)
        file = inspect.getsourcefile(rnn) if in_a_file else None
        if file is None:
            raise RnnFileError(f"rnn: the class {rnn.__name__} must be defined at the top of a "
                               f".py file of its own, not in a script or a notebook (a run "
                               f"records the file, to load the class again)")
        return f"{Path(file).resolve()}:{rnn.__name__}"
    path, name = split(rnn)
    if not Path(path).is_file():
        problem = "is a directory, not a .py file" if Path(path).is_dir() else "no such file"
        raise RnnFileError(f"--rnn {rnn}: {problem}: {path}")
    return f"{Path(path).resolve()}:{name}"


def split(spec):
    """'my_gru.py:GRU' -> ('my_gru.py', 'GRU'); the last colon splits (C:\\x.py:GRU works)."""
    path, colon, name = str(spec).rpartition(":") if isinstance(spec, str) else ("", "", "")
    if not colon or not path.endswith(".py") or not name.isidentifier():
        raise RnnFileError(f"--rnn should be {FORM}, got {spec!r}")
    return path, name


def load(spec, sha256=None):
    """The class named by `spec` ('PATH.py:CLASS'), and the hash of the bytes it was made from.
    With `sha256`, a file whose bytes hash otherwise is refused before any of it runs."""
    path, name = split(spec)
    try:
        source = Path(path).read_bytes()
    except OSError as error:
        raise RnnFileError(f"--rnn {spec}: cannot read {path}: {error.strerror}") from None
    digest = hashlib.sha256(source).hexdigest()
    if sha256 is not None and digest != sha256:
        raise RnnFileChanged(f"{path} has changed since the model was trained (sha256 "
                           f"{sha256[:12]}..., now {digest[:12]}...)")
    module = _module(path, source, digest)
    found = getattr(module, name, None)
    if not isinstance(found, type):
        what = "no" if found is None else f"a {type(found).__name__} named"
        raise RnnFileError(f"--rnn {spec}: {path} defines {what} {name}, where a recurrent "
                           f"layer's class belongs")
    return found, digest


def _module(path, source, digest):
    """The file run as a module of its own, from exactly the bytes that were hashed; the same
    bytes give the same module (and so the same class) for the rest of the process."""
    name = f"seq2seq_rnn_{digest[:16]}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module                  # dataclasses and the like look it up
    folder = str(Path(path).resolve().parent)
    sys.path.insert(0, folder)                  # its imports find the files beside it
    try:
        exec(compile(source, path, "exec"), module.__dict__)    # what an import does
    except (Exception, SystemExit) as error:    # the user's code: anything can happen (a
        del sys.modules[name]                   # sys.exit() too, or the command stops silently)
        line = ""
        if isinstance(error, SyntaxError):
            line = f", line {error.lineno}"
        else:
            mine = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
            line = f", line {mine[-1].lineno}" if mine else ""
        failed = RnnFileError(f"--rnn: running {path}{line} {raised(error)}")
        failed.in_import = isinstance(error, ImportError)
        raise failed from None
    finally:
        sys.path.remove(folder)                 # the first entry that is `folder`: ours
    return module


def raised(error):
    """'raised ValueError: message', or 'called sys.exit(3)' for a SystemExit."""
    if isinstance(error, SystemExit):
        return f"called {exit_call(error)}"
    return f"raised {type(error).__name__}: {error}"


def record(spec):
    """The checkpoint's record of a resolved spec: {"file", "class", "sha256"}; and the class."""
    cls, digest = load(spec)
    path, name = split(spec)
    return cls, {"file": path, "class": name, "sha256": digest}


def add_option(parser):
    """--rnn-file: where a run's layer file is now, when it is no longer where the run was
    trained; evaluate, translate, draw and explore take it (`class_of`'s `moved`)."""
    parser.add_argument("--rnn-file", metavar="PATH", help="the run's --rnn file, moved or "
                        "copied from where it was trained (its SHA-256 must be the one the run "
                        "recorded)")


def class_of(saved, checkpoint, moved=None):
    """The class a checkpoint's record names, if its file is there and unchanged; else a
    RnnFileError that starts with the checkpoint's name and says what to do. `moved`: the
    file's path now, when it is no longer where it was trained (`--rnn-file`, e.g. a run
    graded on another machine): taken only if its bytes hash as the recorded ones."""
    if not (isinstance(saved, dict) and all(isinstance(saved.get(k), str)
                                            for k in ("file", "class", "sha256"))):
        raise RnnFileError(f"{checkpoint}: its 'rnn' entry should be a record of the layer's "
                           f"file (file, class, sha256), found {saved!r}")
    if moved is not None:
        return _moved_class(saved, checkpoint, moved)
    spec = f"{saved['file']}:{saved['class']}"
    if not Path(saved["file"]).is_file():
        raise RnnFileError(f"{checkpoint}: its recurrent layer {saved['class']} comes from "
                           f"{saved['file']}, which is missing: put the file back there, "
                           f"point to a copy of it with --rnn-file PATH (its SHA-256 must be "
                           f"the recorded {saved['sha256'][:12]}...), or train again")
    try:
        return load(spec, saved["sha256"])[0]
    except RnnFileChanged as error:
        raise RnnFileChanged(f"{checkpoint}: {error}: put back the file it was trained with, "
                             f"or train again") from None
    except RnnFileError as error:               # the file is there and unchanged, yet fails
        note = (f" ({Path(saved['file']).name} is unchanged, but only it is recorded: what it "
                f"imports must still be there, beside it or on the Python path)"
                if getattr(error, "in_import", False) else "")
        raise RnnFileError(f"{checkpoint}: {error}{note}") from None


def _moved_class(saved, checkpoint, moved):
    """class_of for a file given as `--rnn-file PATH`: a copy of the one trained with."""
    path = Path(moved)
    if path.is_dir() or not path.is_file():
        problem = "is a directory, not a .py file" if path.is_dir() else "no such file"
        raise RnnFileError(f"--rnn-file {moved}: {problem}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != saved["sha256"]:
        raise RnnFileChanged(f"--rnn-file {moved} is not the file {checkpoint} was trained with "
                             f"(sha256 {digest[:12]}..., the run records "
                             f"{saved['sha256'][:12]}... for {saved['file']})")
    try:
        return load(f"{path.resolve()}:{saved['class']}", saved["sha256"])[0]
    except RnnFileError as error:
        raise RnnFileError(f"{checkpoint}: {error}") from None
