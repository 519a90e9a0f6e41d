"""A recurrent layer from the user's own file, `--rnn my_gru.py:GRU`, and how a run keeps it; an
encoder block from a file, `--block my_block.py:Block`, is kept the same way (each function takes
the layer's `kind`, seq2seq.commands.layer_kinds: the options and words its messages use).

A checkpoint holds arrays and JSON, never code (no pickle). A model whose layer is a class from
a file is saved with a record of that file instead (`record`):

    {"file": "/home/me/my_gru.py", "class": "GRU", "sha256": "9f2c..."}

the file's absolute path and the SHA-256 hash of its bytes; and `train` keeps a copy of the
file in the run folder, named after it and its hash (`my_gru-9f2c1a3b.py`, `keep_copy`).

Loading a run never runs code the user did not name. A checkpoint is data: anyone can write
one that records any file of the machine, with its right hash (the hash proves the file
unchanged, not that the user chose it). So whatever loads the run again (evaluate, translate,
draw, explore, train --resume) runs the recorded layer only from the copy in the run folder the
user named (a regular file, not a symbolic link, whose resolved path lies in that folder; or
the recorded file itself when it lies there), or from a file named on the command line
(`--rnn-file PATH`, or `--rnn` again on `train --resume`), and only if its bytes hash as
recorded (`class_of`): the class that rebuilds the model is then the very code that trained it.
The path the checkpoint records is never run, even when the same bytes are there: a module
beside it could be anyone's. Anything else is refused with one line that says how to name the
file. (Only that file is hashed: if it imports another file of yours, a change there goes
unnoticed.)

The file runs with its own folder appended to `sys.path` (while it runs), after the standard
library and the installed packages, so `from mycell import gru_cell` finds a mycell.py beside
it from whatever folder the command runs in, yet a statistics.py or a minigrad/ beside it
cannot stand in for the real one. The run folder's copy runs alone, from the run folder: a
layer split over several files of its own loads again when named with --rnn-file (its folder
is then searched), or is kept as one file.

A run folder that holds a layer file is code, as that file is: load only runs you trust.

A layer file that fails: seq2seq.commands.rnn_failures (a child process checks it first).
"""

import hashlib
import importlib.util
import inspect
import reprlib
import sys
import traceback
from pathlib import Path

from minigrad.files import atomic_write, missing_file, os_reason
from seq2seq.commands.layer_kinds import BLOCK, KINDS, RNN, NamedFile, kind_of  # noqa: F401
from seq2seq.commands.messages import message
from seq2seq.models.recurrent import raised

__all__ = ["BLOCK", "KINDS", "RNN", "NamedFile", "RnnFileChanged", "RnnFileError", "add_option",
           "class_of", "keep_copy", "load", "record", "remove_earlier_copies", "resolved", "split"]

MAX_PATH = 4096         # Linux's PATH_MAX: a longer recorded path is no file's, only a long line


class RnnFileError(ValueError):
    """The layer's file cannot be used: missing, changed, broken, or without the class."""


class RnnFileChanged(RnnFileError):
    """The layer's file hashes otherwise than the one the model was trained with."""


def resolved(rnn, kind=RNN):
    """--rnn (or --block) as a run keeps it: None (the project's layer), or
    'ABSOLUTE/PATH.py:CLASS' for a spec whose file exists, or for a class defined in a file.
    Anything else is a RnnFileError."""
    if rnn is None:
        return None
    if isinstance(rnn, type):
        module = sys.modules.get(rnn.__module__)
        in_a_file = (module is not None and module.__name__ != "__main__"
                     and getattr(module, rnn.__name__, None) is rnn)
        file = inspect.getsourcefile(rnn) if in_a_file else None
        if file is None:
            raise RnnFileError(message("layer.not_in_a_file", entry=kind.entry,
                                       name=rnn.__name__))
        return f"{Path(file).resolve()}:{rnn.__name__}"
    path, name = split(rnn, kind)
    if (problem := missing_file(path)) is not None:
        raise RnnFileError(message("layer.no_file", option=kind.option, spec=rnn,
                                   problem=problem, path=path))
    return f"{Path(path).resolve()}:{name}"


def split(spec, kind=RNN):
    """'my_gru.py:GRU' -> ('my_gru.py', 'GRU'); the last colon splits (C:\\x.py:GRU works)."""
    path, colon, name = str(spec).rpartition(":") if isinstance(spec, str) else ("", "", "")
    if not colon or not path.endswith(".py") or not name.isidentifier():
        raise RnnFileError(message("layer.spec", option=kind.option, example=kind.example,
                                   spec=repr(spec)))
    return path, name


def load(spec, sha256=None, beside=True, kind=RNN):
    """The class named by `spec` ('PATH.py:CLASS'), and the hash of the bytes it was made from.
    With `sha256`, a file whose bytes hash otherwise is refused before any of it runs. With
    `beside`, the file's imports find the modules in its folder (a file the user named);
    without, they do not (a run folder's copy: what lies beside it, the user did not name)."""
    path, name = split(spec, kind)
    try:
        source = Path(path).read_bytes()
    except OSError as error:
        raise RnnFileError(message("layer.cannot_read", option=kind.option, spec=spec, path=path,
                                   error=os_reason(error))) from None
    digest = hashlib.sha256(source).hexdigest()
    if sha256 is not None and digest != sha256:
        raise RnnFileChanged(message("layer.changed", path=path, was=sha256[:12],
                                     now=digest[:12]))
    module = _module(path, source, digest, beside, kind)
    found = vars(module).get(name)                  # not getattr: module.__class__ is a class
    imported = isinstance(found, type) and found.__module__ != module.__name__
    if kind is BLOCK and (imported or name.startswith("__")):
        raise RnnFileError(message("layer.imported" if imported else "layer.not_defined",
                                   option=kind.option, spec=spec, name=name, path=path,
                                   module=getattr(found, "__module__", "")))
    if not isinstance(found, type):
        raise RnnFileError(message(f"layer.defines_{'no' if found is None else 'other'}_"
                                   f"{kind.entry}", option=kind.option, spec=spec, path=path,
                                   name=name, type=type(found).__name__))
    return found, digest


def _module(path, source, digest, beside=True, kind=RNN):
    """The file run as a module of its own, from exactly the bytes that were hashed; the same
    bytes give the same module (and so the same class) for the rest of the process."""
    name = f"seq2seq_{kind.entry}_{digest[:16]}"           # seq2seq_rnn_..., seq2seq_block_...
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module                  # dataclasses and the like look it up
    folder = str(Path(path).resolve().parent) if beside else None
    if folder is not None:      # its imports find the files beside it, but after the standard
        sys.path.append(folder)  # library and the packages: a statistics.py there shadows nothing
    try:
        exec(compile(source, path, "exec"), module.__dict__)    # what an import does
    except (Exception, SystemExit) as error:    # the user's code: anything can happen (a
        del sys.modules[name]                   # sys.exit() too, or the command stops silently)
        mine = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
        number = error.lineno if isinstance(error, SyntaxError) else mine[-1].lineno if mine else 0
        line = message("layer.line", number=number) if number else ""
        failed = RnnFileError(message("layer.running", option=kind.option, path=path,
                                      line=line, raised=raised(error)))
        failed.in_import = isinstance(error, ImportError)
        raise failed from None
    finally:
        if folder is not None:
            del sys.path[len(sys.path) - 1 - sys.path[::-1].index(folder)]     # the last: ours
    return module


def record(spec, kind=RNN):
    """The class of a resolved spec, and the checkpoint's record of it: {"file", "class",
    "sha256"}; (None, None) for None (the project's own layer)."""
    if spec is None:
        return None, None
    cls, digest = load(spec, kind=kind)
    path, name = split(spec, kind)
    return cls, {"file": path, "class": name, "sha256": digest}


def add_option(parser):
    """--rnn-file and --block-file: the run's layer file named on the command line, for a run
    folder that holds no copy of it (trained before runs kept one, or the copy removed);
    evaluate, translate, draw and explore take it (`class_of`'s `moved`), as `layer_file`, a
    NamedFile that knows which option named it."""
    group = parser.add_mutually_exclusive_group()
    for kind in KINDS:
        group.add_argument(kind.file_option, dest="layer_file", metavar="PATH",
                           type=lambda path, kind=kind: NamedFile(path, kind),
                           help=f"the run's {kind.option} file, when the run folder holds no "
                           f"copy of it (its SHA-256 must be the one the run recorded); only a "
                           f"layer file in the run folder or named here is run")


def copy_name(saved):
    """The name of the run folder's copy of the layer file: 'my_gru-9f2c1a3b.py'. The hash in
    the name lets a new run (--overwrite) keep its copy beside the old run's, so the old run
    stays whole until the new one's checkpoint replaces it."""
    return f"{Path(saved['file']).stem}-{saved['sha256'][:8]}.py"


def keep_copy(folder, saved, kind=RNN):
    """Copy the layer file that `saved` records into the run folder (atomically), unless it is
    there already: the bytes, hashing as recorded, of the file the class was loaded from in this
    process (maybe one named by --rnn-file, changed since), else of the recorded one."""
    path = Path(saved["file"])
    if path.parent.resolve() == Path(folder).resolve():
        return path                             # the file lives in the run folder itself
    copy = Path(folder) / copy_name(saved)
    if copy.is_file() and _sha256(copy) == saved["sha256"]:
        return copy
    module = sys.modules.get(f"seq2seq_{kind.entry}_{saved['sha256'][:16]}")
    for origin in [path] if module is None else [Path(module.__file__), path]:
        try:
            source = origin.read_bytes()
        except OSError:
            continue
        if hashlib.sha256(source).hexdigest() == saved["sha256"]:
            return atomic_write(copy, lambda file: file.write(source))
    raise RnnFileChanged(message("layer.changed_in_training", option=kind.option, path=path))


def remove_earlier_copies(folder, saved=None):
    """After the first checkpoint of a run that replaced another (--overwrite): remove the
    copies of layer files the earlier run kept (STEM-XXXXXXXX.py, whose bytes' SHA-256 starts
    with XXXXXXXX: a file of the user's is not one by chance), all but `saved`'s."""
    keep = None if saved is None else copy_name(saved)
    for path in sorted(Path(folder).glob("*-????????.py")):
        if path.name != keep and path.is_file() and not path.is_symlink() \
                and path.stem.endswith("-" + _sha256(path)[:8]):
            path.unlink()


def same_file(spec, record, kind=RNN):
    """Whether `spec` ('PATH.py:CLASS', named on `train --resume`) names the layer a checkpoint
    records: the same class, in a regular file whose bytes hash as recorded (the file moved, or
    a copy of it, is the same layer)."""
    if not isinstance(spec, str) or not isinstance(record, dict):
        return False
    path, name = split(spec, kind)
    try:
        return (name == record.get("class") and Path(path).is_file()
                and _sha256(path) == record.get("sha256"))
    except OSError:
        return False


def _sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def class_of(saved, checkpoint, moved=None, kind=RNN):
    """The class a checkpoint's record names, from bytes the user named: the copy in the
    checkpoint's folder (or the recorded file, when it lies in that folder), or `moved`, a file
    named on the command line (`--rnn-file`); each taken only if it hashes as recorded. The
    copy must be a regular file whose resolved path lies in that folder: a symbolic link would
    run, and put on sys.path, a folder the checkpoint's writer chose. Else a RnnFileError that
    starts with the checkpoint's name and says how to name the file."""
    if not (isinstance(saved, dict) and all(isinstance(saved.get(k), str)
                                            for k in ("file", "class", "sha256"))
            and saved["class"].isidentifier() and len(saved["sha256"]) == 64
            and all(c in "0123456789abcdef" for c in saved["sha256"])
            and 0 < len(saved["file"]) <= MAX_PATH and saved["file"].isprintable()):
        raise RnnFileError(message("layer.bad_record", checkpoint=checkpoint, entry=repr(
            kind.entry), most=MAX_PATH, found=reprlib.repr(saved)))
    if moved is not None:
        return _moved_class(saved, checkpoint, moved, kind)
    folder = Path(checkpoint).parent
    recorded = Path(saved["file"])
    inside = recorded.parent.resolve() == folder.resolve()
    copy = folder / (recorded.name if inside else copy_name(saved))
    if copy.is_symlink() or (copy.exists() and (not copy.is_file()
                                                or copy.resolve().parent != folder.resolve())):
        raise RnnFileError(message("layer.copy_not_regular", checkpoint=checkpoint, copy=copy,
                                   file_option=kind.file_option, option=kind.option))
    if not copy.is_file():
        raise RnnFileError(message("layer.no_copy", checkpoint=checkpoint, noun=kind.noun,
                                   name=saved["class"], file=saved["file"], folder=folder,
                                   copy=copy.name, file_option=kind.file_option,
                                   option=kind.option, sha256=saved["sha256"][:12]))
    if _sha256(copy) != saved["sha256"]:
        raise RnnFileChanged(message("layer.copy_changed", checkpoint=checkpoint, copy=copy,
                                     was=saved["sha256"][:12], now=_sha256(copy)[:12]))
    try:                # the copy runs, never the recorded path: its neighbours are not ours
        return load(f"{copy.resolve()}:{saved['class']}", saved["sha256"], beside=False,
                    kind=kind)[0]
    except RnnFileError as error:               # the file is there and unchanged, yet fails
        note = (message("layer.runs_alone", copy=copy.name, file_option=kind.file_option)
                if getattr(error, "in_import", False) else "")
        raise RnnFileError(f"{checkpoint}: {error}{note}") from None


def _moved_class(saved, checkpoint, moved, kind):
    """class_of for a file given as `--rnn-file PATH`: a copy of the one trained with."""
    path = Path(moved)
    if (problem := missing_file(path)) is not None:
        raise RnnFileError(message("layer.moved_missing", file_option=kind.file_option,
                                   moved=moved, problem=problem))
    digest = _sha256(path)
    if digest != saved["sha256"]:
        raise RnnFileChanged(message("layer.moved_other", file_option=kind.file_option,
                                     moved=moved, checkpoint=checkpoint, now=digest[:12],
                                     was=saved["sha256"][:12], file=saved["file"]))
    try:
        return load(f"{path.resolve()}:{saved['class']}", saved["sha256"], kind=kind)[0]
    except RnnFileError as error:
        raise RnnFileError(f"{checkpoint}: {error}") from None
