"""An experiment run again over its earlier results: the new run is made beside them and swapped
in only once its results are written, so that a run that fails, or is killed at any moment,
leaves the earlier results whole (seq2seq.papers.folder.experiment_folder uses it).

    OUT/.next/          the new run: its models' run folders and its results, laid out as in OUT
    OUT/.next/.ready    written once they all are: from then on, the new run is the one kept
    OUT/.replaced/      the earlier run's model folders on their way out
    OUT/.next/.begun    written as .next is made: a .next without it is not an experiment's

Only folders the swap made are removed or swapped in: a .next or .replaced of the user's (no
.begun in the .next; a symbolic link, a file) is refused in one line, and nothing is touched.

The swap moves each entry of .next over its namesake in OUT (a file in one os.replace; a folder
renamed into .replaced first, then the new one into its place), removes the earlier run's files
that the new one did not write (a figure not drawn this time), then .replaced and .next. A kill
during the swap leaves .ready behind: the next command on the folder finishes the swap before
anything else (`finish`); until then, the commands that read a run (evaluate, translate, draw,
explore) refuse a model folder there in one line (seq2seq.commands.runs.check_swap_finished),
rather than finish the swap without the folder's lock or read it half swapped. A kill before
.ready leaves a .next without it: the next command removes it, and the earlier results were
never touched.
"""

import json
import os
import shutil

from minigrad.files import atomic_write, read_small_text
from seq2seq.commands import runs
from seq2seq.commands.lock_file import LOCK
from seq2seq.commands.messages import message

NEXT, REPLACED = runs.SCRATCH
READY = runs.READY
BEGUN = ".begun"


def begin(out):
    """Make the place of the new run, OUT/.next (`finish` ran first), and return it."""
    place = out / NEXT
    place.mkdir()
    (place / BEGUN).write_text("an experiment's new run, made by seq2seq.papers.swap\n")
    return place


def check_own(out):
    """Refuse (one line) a .next or .replaced in `out` that the swap did not make: a folder of
    the user's, named so by chance, is never removed or moved into the results."""
    place, gone = out / NEXT, out / REPLACED
    ours = place.is_dir() and not place.is_symlink() and (
        (place / BEGUN).is_file() or not any(place.iterdir()))   # empty: killed as it was made
    for path in (place, gone):
        if os.path.lexists(path) and not (ours and path.is_dir() and not path.is_symlink()):
            raise runs.RunFolderError(message("papers.not_unfinished", path=path, next=NEXT,
                                              replaced=REPLACED, begun=BEGUN, out=out))


def finish(out, log):
    """Finish what a stopped command left in `out` (its lock held): a swap that had begun is
    completed; an unfinished new run is removed. A .next or .replaced the swap did not make is
    refused first (`check_own`)."""
    check_own(out)
    place = out / NEXT
    if (place / READY).is_file():
        _swap(out)
        log(message("papers.finished_swap", out=out))
    elif place.exists():
        shutil.rmtree(place)
        log(message("papers.removed_unfinished", place=place))
    shutil.rmtree(out / REPLACED, ignore_errors=True)


def swap_in(out, earlier):
    """Put the new run (in OUT/.next) in the place of the earlier one, whose files, relative to
    `out`, are `earlier`."""
    place = out / NEXT
    stale = [f for f in earlier if not os.path.lexists(place / f)]   # the new run wrote none
    text = json.dumps(stale)
    atomic_write(place / READY, lambda file: file.write(text), text=True)
    _swap(out)


def _swap(out):
    """Move every entry of OUT/.next over its namesake (repeatable: a kill at any point is
    finished by running it again), remove the stale files READY lists, then the scratch."""
    place, gone = out / NEXT, out / REPLACED
    stale = json.loads(read_small_text(place / READY, runs.MAX_JSON, message("what.swap_list")))
    gone.mkdir(exist_ok=True)
    for entry in sorted(place.iterdir()):
        if entry.name in (READY, LOCK, BEGUN):
            continue
        target = out / entry.name
        if entry.is_dir() and not entry.is_symlink() and os.path.lexists(target):
            if os.path.lexists(gone / entry.name):
                shutil.rmtree(gone / entry.name)
            os.replace(target, gone / entry.name)       # a folder cannot replace a folder
        os.replace(entry, target)
    for f in stale:
        if os.path.lexists(out / f) and not os.path.isdir(out / f):
            os.remove(out / f)
        folder = (out / f).parent   # a model folder of the earlier run only: empty but for its lock
        if folder != out and folder.is_dir() and {e.name for e in folder.iterdir()} <= {LOCK}:
            shutil.rmtree(folder)
    shutil.rmtree(gone)
    shutil.rmtree(place)


_SAID = {}         # OUT/.next -> the lines that name its files, said once they are in OUT


def say(place, log, line):
    """Log `line`, "{out}" in it the folder the files will be in: at once for OUT; for OUT/.next,
    once the swap has put them in OUT (`said`), so that no line names a place they are not."""
    if place.name != NEXT:
        log(line.format(out=place))
    else:
        _SAID.setdefault(str(place), []).append(line.format(out=place.parent))


def said(place):
    """The lines `say` kept back for `place` (forgotten here)."""
    return _SAID.pop(str(place), [])
