"""A run folder's rules: no run is lost, and a resumed run is the run it claims to be.

- One run at a time: `hold(folder)` locks `folder/.lock` (fcntl.flock) for as long as the run
  lasts; a second run on the folder is refused. The operating system drops the lock when the
  process ends, however it ends, so a killed run never leaves the folder locked. On taking the
  lock, the temporary files that a killed writer left (`.NAME.XXXXXXXX.tmp`) are removed. A
  command refused (or failed) removes the `.lock` it made, and the folders it made (those
  above the run folder too): the user's folder is left as it was (seq2seq.commands.lock_file).
- Nothing is replaced unasked: `start(folder, config)` refuses a folder that holds a run (or any
  file the run would write) unless the config says `resume` (continue it) or `overwrite`
  (start afresh). Nothing of the earlier run is removed: the new run's first checkpoint
  replaces the old one in one atomic rename (minigrad.files.atomic_write), so a run that
  fails or is killed before its first epoch is saved (bad settings, no memory, a broken
  --rnn file) leaves the earlier run whole, and a kill at any point leaves one checkpoint,
  the old one or the new one. (A new run's --rnn file is kept beside the old one's, under
  a name that holds its hash, seq2seq.commands.rnn_file.keep_copy; the old one's copy is removed
  once the new checkpoint has replaced the old.)
- An experiment (the demo, compare-lengths) replaces its own earlier run and nothing else
  (`claim`).
- `resume` refuses, naming each option, any change the saved model cannot honour (its shape,
  its wiring, its recurrent layer, its data); the changes it can honour are returned, to be
  noted in the history. --task and --columns are compared by what they mean, not how they
  are spelled, and a run's pairs file is found from any folder (seq2seq.commands.task_file).
  A layer from a file (--rnn) must also be unchanged: loading the run checks the file's hash
  (seq2seq.commands.rnn_file).
- The checkpoint is the truth: report.json is made from its history, written after it, and
  rewritten from it when a kill came between the two (seq2seq.commands.reports).
- What a run prints goes through `say` (seq2seq.commands.progress), which keeps quiet once
  stdout is closed (`train ... | head -1`): a closed pipe must not stop a run before its epoch
  is saved.
"""

import contextlib
import json
import os
from pathlib import Path

from minigrad.files import os_reason, read_small_text, stale_temporaries
from seq2seq.commands import lock_file
from seq2seq.commands.lock_file import LOCK
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say

CHECKPOINT, REPORT = "checkpoint.npz", "report.json"
MAX_JSON = 10_000_000   # bytes of a JSON file a command reads from a folder: far more than any
#                         it writes (a folder's files may be anyone's: a FIFO, a link to /dev/zero)
RUN_FILES = (CHECKPOINT, REPORT)            # what `train` writes in its folder
READY = ".ready"                            # written in .next once a new run is complete
SCRATCH = (".next", ".replaced")            # an experiment's new run, and the earlier one's
#                                             files on their way out (seq2seq.papers.folder)

# The options of a run (TrainConfig's fields), by what a resumed run may do with them.
MUST_MATCH = ("task", "sep", "num_examples", "min_len", "max_len", "seed", "val_fraction",
              "level", "reverse_input", "embed_size", "hidden_size", "attention", "wiring",
              "bidirectional", "rnn", "block", "columns", "arch", "d_model", "heads", "layers",
              "d_ff", "norm", "positions")
MAY_CHANGE = ("epochs", "lr", "lr_decay", "clip", "threads", "batch_size",
              "teacher_forcing_ratio", "progress", "fused", "label_smoothing", "dropout",
              "warmup")
NOT_SETTINGS = ("out", "resume", "overwrite")


class RunFolderError(ValueError):
    """The run folder cannot be used as asked; the message names the folder and the way out."""


# ---- the lock --------------------------------------------------------------------------------

_held = {}                                  # real path of a folder -> [lock file's fd, depth]


@contextlib.contextmanager
def hold(folder, log=say, created=False):
    """Hold the folder's lock: refuse (RunFolderError) if another process holds it. Re-entrant
    within one process (the demo holds it around the `train` it calls). On taking it, remove
    the temporary files a killed writer left there. A command refused or failed leaves no
    trace: the .lock is removed if this call made it, and the folders `created` lists (those
    make_folder made for this command, deepest first), each if empty."""
    folder = Path(folder)
    key = os.path.realpath(folder)
    if key in _held:
        _held[key][1] += 1
        try:
            yield
        finally:
            _held[key][1] -= 1
        return
    fd, made = lock_file.take(folder, RunFolderError)
    _held[key] = [fd, 1]
    try:
        with contextlib.suppress(OSError):          # who holds it, for the message of the next
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        stale = stale_temporaries(folder)
        for name in stale:
            os.remove(folder / name)
        if stale:
            log(message("runs.removed_temporary", count=len(stale), folder=folder))
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            if made:                        # removed while still locked: see lock_file
                os.remove(folder / LOCK)
            for made_folder in created or ():
                made_folder.rmdir()         # only if nothing else is there; deepest first
        raise
    finally:
        del _held[key]
        os.close(fd)                        # closing the file releases the lock


# ---- starting a run --------------------------------------------------------------------------

def check_out(out, option="--out"):
    """Refuse an empty --out before it becomes Path('') (the current directory)."""
    if str(out).strip() == "":
        raise RunFolderError(message("runs.out_empty", option=option))
    return out


def make_folder(folder):
    """Make the run folder and any missing folder above it: the folders it made, deepest first
    (see hold's `created`; empty if the run folder was there)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise RunFolderError(message("runs.out_is_file", folder=folder))
    created = []
    missing = folder
    while not missing.exists() and not missing.is_symlink() and missing != missing.parent:
        created.append(missing)
        missing = missing.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RunFolderError(message("runs.cannot_make", folder=folder,
                                     error=os_reason(error))) from error
    return created


def present(folder, names):
    """Which of `names` are there (a dangling symlink counts: it would be replaced too)."""
    return [n for n in names if (Path(folder) / n).exists() or (Path(folder) / n).is_symlink()]


def start(folder, config, level, log=say, pairs_file=None):
    """Check that the run `config` may start in `folder` (whose lock is held). Returns
    (the saved checkpoint or None, {option: [saved, new]} for the options changed on resume).
    `level` is the token level the config gives (the task's own when config.level is None);
    `pairs_file` the pairs file the run reads, when config.task names one (check_resume)."""
    folder = Path(folder)
    if config.resume and config.overwrite:
        raise RunFolderError(message("runs.resume_and_overwrite"))
    experiment = experiment_in(folder)
    if experiment is not None:                  # its results are not a run's to share a folder
        raise RunFolderError(message("runs.experiment_there", folder=folder,
                                     experiment=experiment[1], file=experiment[0]))
    if not config.resume:
        there = present(folder, RUN_FILES)
        if there and not config.overwrite:
            way = (message("runs.resume_or_overwrite")
                   if CHECKPOINT in there else     # nothing to resume without the checkpoint
                   message("runs.nothing_to_resume_there", checkpoint=CHECKPOINT))
            raise RunFolderError(message("runs.holds_run", folder=folder,
                                         files=", ".join(there), way=way))
        if there:                       # nothing removed: the new files replace the old ones
            log(message("runs.overwrite_later", folder=folder))
        return None, {}
    if not present(folder, [CHECKPOINT]):
        holds = present(folder, RUN_FILES)      # a report without its checkpoint: replace it
        raise RunFolderError(message("runs.nothing_to_resume" if holds else
                                     "runs.nothing_to_resume_empty", folder=folder,
                                     checkpoint=CHECKPOINT))
    from seq2seq.commands.checkpoint_reading import read_checkpoint  # every entry checked first
    from seq2seq.commands.reports import reconcile_report  # reports imports this file
    state = read_checkpoint(folder / CHECKPOINT)
    changed = check_resume(folder, state, config, level, pairs_file)
    reconcile_report(folder, state, log)
    return state, changed


def experiment_in(folder):
    """(file name, experiment) for a reproduction's results in `folder` (a JSON file that names
    its experiment, as compare-lengths.json does), else None."""
    for path in sorted(Path(folder).glob("*.json")):
        if path.name == REPORT:
            continue
        try:
            result = json.loads(read_small_text(path, MAX_JSON, message("what.result_file")))
        except (OSError, ValueError):
            continue
        if isinstance(result, dict) and isinstance(result.get("experiment"), str):
            return path.name, result["experiment"]
    return None


def check_swap_finished(run):
    """Refuse a run folder inside an experiment's folder whose swap (seq2seq.papers.swap) was
    stopped part-way (OUT/.next/.ready there): its model folders may be missing or mixed. Not
    finished here: a command that only reads a run does not take the experiment folder's lock,
    and the swap is finished by the next experiment command on the folder."""
    parent = Path(run).absolute().parent
    if not (parent / SCRATCH[0] / READY).is_file():
        return
    found = experiment_in(parent / SCRATCH[0])
    what = (message("runs.swap_of", experiment=found[1]) if found
            else message("runs.swap_of_an_experiment"))
    raise RunFolderError(message("runs.unfinished_swap", parent=parent, what=what,
                                 run=Path(run).name))


def check_resume(folder, state, config, level, pairs_file=None):
    """Refuse the options the saved model cannot honour; return those it can, as changed.
    --task and --columns are compared by what they mean (seq2seq.commands.task_file): another
    spelling of the run's pairs file, or of its column numbers, is the run's own. `pairs_file`:
    the file the run will read (by default config.task)."""
    from seq2seq.commands.task_file import same_columns, same_task
    from seq2seq.commands.train import TrainConfig
    saved = {**TrainConfig().__dict__, **state.get("config", {})}
    new = dict(config.__dict__)
    saved["level"], new["level"] = state.get("level", saved["level"]), level
    from seq2seq.commands.rnn_file import BLOCK, RNN, same_file
    same = {"task": lambda: same_task(saved["task"], new["task"], state),
            "rnn": lambda: same_file(new["rnn"], state.get("rnn"), RNN),
            "block": lambda: same_file(new["block"], state.get("block"), BLOCK),
            "columns": lambda: same_columns(saved["columns"], new["columns"],
                                            pairs_file or new["task"], new["sep"])}
    refused = [message("runs.refused_for" if name in ("sep", "columns") else "runs.refused",
                       option=name.replace("_", "-"), new=_shown(new[name]),
                       saved=_shown(saved[name]), task=saved["task"])
               for name in MUST_MATCH
               if new[name] != saved[name] and not (name in same and same[name]())]
    if refused:
        raise RunFolderError(message("runs.other_settings", folder=folder,
                                     refused=", ".join(refused)))
    return {name: [saved[name], new[name]] for name in MAY_CHANGE if new[name] != saved[name]}


def _shown(value):
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return repr(value) if isinstance(value, str) and not value.strip() else str(value)


# ---- an experiment's folder (the demo, compare-lengths) -----------------------------------

def claim(out, owned, is_earlier, what, overwrite, log, subfolders=(), remove=True):
    """Make `out` ready for the experiment `what`, whose files (paths relative to `out`) are
    those `owned(path)` accepts: nothing of them there, go; only its files, and `is_earlier(out)`
    says they are an earlier run of it, remove them and say so; `overwrite`, remove its files
    (others stay); anything else, refuse. Called with the folder's lock held. Returns the
    experiment's files found there; `remove` False leaves them, for the caller to replace
    (seq2seq.papers.folder: a new run is made beside them, then swapped in)."""
    files = _files(out, subfolders)
    mine = [f for f in files if owned(f)]
    if not files:
        return []
    if not overwrite and (len(mine) < len(files) or not is_earlier(out)):
        others = [f for f in files if not owned(f)] or files
        raise RunFolderError(message(
            "runs.not_earlier", out=out, what=what,
            files=", ".join(others[:3]) + (", ..." if len(others) > 3 else "")))
    for f in mine if remove else ():
        (out / f).unlink()
    if mine:
        log(message("runs.replacing_files" if overwrite else "runs.replacing_earlier",
                    what=what, out=out))
    return mine


def _files(out, subfolders):
    """The files in `out` (and in its subfolders named in `subfolders`) as relative paths;
    another folder as "name/"; the lock and stale temporary files left out."""
    files, skipped = [], {LOCK, *SCRATCH, *stale_temporaries(out)}
    for entry in sorted(out.iterdir()):
        if entry.name in skipped:
            continue
        if entry.is_dir() and not entry.is_symlink():
            inner = _files(entry, ()) if entry.name in subfolders else [""]
            files += [f"{entry.name}/{f}" for f in inner]
        else:
            files.append(entry.name)
    return files
