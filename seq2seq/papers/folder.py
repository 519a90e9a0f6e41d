"""What the reproductions share: their folder's rules, the training of their models one after
the other, and the writing of their results.

An experiment's folder holds one subfolder per trained model (a run folder, as `train` makes it)
and the experiment's own results beside them:

    OUT/compare-lengths.json   what it measured        OUT/plain/checkpoint.npz   a model
    OUT/compare-lengths.png    its figure              OUT/plain/report.json

As for the demo (seq2seq.commands.demo), a second run of the experiment replaces the first and
says so, and nothing else is replaced without --overwrite (seq2seq.commands.runs.claim). A folder is
the experiment's own earlier run when every checkpoint in it has the config the experiment would
train now, but for the options its command line may change, and its JSON names the experiment.
A subfolder is one of the experiment's models only if that JSON records it ("model_folders":
the names of the model folders the run made); any other subfolder is someone else's, kept as it
is, and one whose name a model of this run would take is refused, even with --overwrite: a
`train` run of the user's own in OUT/seed-0 is not replaced by the experiment's seed-0 model.
"""

import contextlib
import dataclasses
import json
import os
import shutil
import time
from pathlib import Path

from minigrad.files import atomic_write, read_small_text, stale_temporaries
from seq2seq.commands import runs
from seq2seq.commands.demo import FREE, same_config, saved_config
from seq2seq.commands.lock_file import LOCK
from seq2seq.commands.messages import message
from seq2seq.commands.settings import check_train_config
from seq2seq.papers import swap


@contextlib.contextmanager
def experiment_folder(out, what, configs, results, overwrite, log, free=()):
    """Check every config, make `out`, hold its lock and claim it for the experiment `what`
    (whose models train in out/NAME for NAME in `configs`, and which writes the files named in
    `results`); then run the body, which makes the experiment in the folder this yields.
    `free`: options, besides FREE, that may differ from an earlier run of the experiment (those
    its command line sets). A folder holding a train run is refused, even with `overwrite`:
    a run and an experiment do not share a folder (as seq2seq.commands.runs.start refuses
    the converse); so is a subfolder named as one of `configs` that the results there do not
    record as the experiment's (`_models`). The body makes the new run in OUT/.next (the
    configs' `out` are moved there, in `configs` itself), swapped in once the body is done
    (seq2seq.papers.swap): earlier results stay whole until then, and a first run killed part
    way leaves nothing in OUT but the .next that the next command removes."""
    for config in configs.values():             # every one, before any trains or a file goes
        check_train_config(config)
    out = Path(out)
    created = runs.make_folder(out)
    with runs.hold(out, log, created):
        swap.finish(out, log)                   # what a killed run left, before anything else
        run = runs.present(out, runs.RUN_FILES)
        if run:             # even with --overwrite: as `train` refuses an experiment's folder
            raise runs.RunFolderError(message("papers.train_run", out=out, files=", ".join(run),
                                              what=what))
        models = _models(out, what, configs, results, free)
        for name in configs:        # even with --overwrite: the swap replaces the folder whole
            _check_replaceable(out, name, name in models, what, results)
        earlier = runs.claim(out, _owned(models, results),
                             _earlier(what, configs, results, free), what, overwrite, log,
                             subfolders=models, remove=False)
        place = swap.begin(out)
        for name, config in configs.items():
            configs[name] = dataclasses.replace(config, out=str(place / name))
        _RECORDED[str(place)] = list(configs)
        try:
            yield place
        except BaseException:
            shutil.rmtree(place, ignore_errors=True)    # the earlier run stays as it was
            swap.said(place)
            raise
        finally:
            _RECORDED.pop(str(place), None)
        swap.swap_in(out, earlier)
        for line in swap.said(place):           # where the results are, now that they are
            log(line)


# What an earlier run of the experiment may have trained with, besides its `free` options: other
# seeds (FREE) and, for compare-architectures, other tasks.
OTHER_SETTINGS = {"task", "sep"}

_RECORDED = {}      # OUT/.next -> the names of its model folders, which write_json records


def _json(results):
    """The experiment's JSON among its result files."""
    return next(r for r in results if r.endswith(".json"))


def _models(out, what, configs, results, free):
    """The subfolders of `out` that are the experiment's models: those its JSON there records
    (a JSON that names `what`); none when there is no such JSON. A JSON written before the
    results recorded their models: as then, those of `configs` and `_other_models`."""
    try:
        result = json.loads(read_small_text(out / _json(results), runs.MAX_JSON,
                                            message("what.result_file")))
    except (OSError, ValueError):
        return ()
    if not isinstance(result, dict) or result.get("experiment") != what:
        return ()
    recorded = result.get("model_folders")
    if recorded is None:                        # an older version's results
        return (*configs, *_other_models(out, configs, free))
    if not isinstance(recorded, list):
        return ()
    return tuple(name for name in recorded if isinstance(name, str) and name
                 and not name.startswith(".") and "/" not in name and "\\" not in name)


def _check_replaceable(out, name, recorded, what, results):
    """Refuse out/NAME, which the new run's model NAME will replace whole, if it is not a model
    folder of an earlier run (`recorded`: its results record it), or holds more than its run."""
    folder = out / name
    if not os.path.lexists(folder):
        return
    if not recorded:
        raise runs.RunFolderError(message("papers.not_a_model", folder=folder, what=what,
                                          json=_json(results), out=out))
    if folder.is_dir() and not folder.is_symlink():
        run = {*runs.RUN_FILES, LOCK, *stale_temporaries(folder)}
        others = sorted(e.name for e in folder.iterdir() if e.name not in run)
        if others:
            raise runs.RunFolderError(message(
                "papers.not_its_files", folder=folder,
                files=", ".join(others[:3]) + (", ..." if len(others) > 3 else "")))


def _other_models(out, configs, free):
    """The subfolders of `out` that are model folders of an earlier run of the experiment with
    other settings (learned-0/ when the run now is of seed 1): not among `configs`, holding
    nothing but run files (and train's lock), and a checkpoint whose config is one of
    `configs`' but for the options in FREE, `free` and OTHER_SETTINGS. Only for results that do
    not record their models (written by an older version)."""
    loose = FREE | set(free) | OTHER_SETTINGS
    found = []
    for entry in sorted(out.iterdir()):
        if (entry.name in configs or entry.name.startswith(".") or entry.is_symlink()
                or not entry.is_dir() or not (entry / runs.CHECKPOINT).is_file()
                or any(f.name not in (*runs.RUN_FILES, LOCK) for f in entry.iterdir())):
            continue
        saved = saved_config(entry)
        if saved is not None and any(same_config(saved, c, loose) for c in configs.values()):
            found.append(entry.name)
    return found


def _owned(models, results):
    """Is a path (relative to the folder) one the experiment writes? Its results, and the run
    files of its models (those it trains, and those an earlier run of it trained)."""
    files = {*results, *(f"{name}/{f}" for name in models for f in runs.RUN_FILES)}
    return files.__contains__


def _earlier(what, configs, results, free):
    """Is the folder an earlier run of `what`? Every model's checkpoint found there has the
    config it would have now, but for the options in FREE and `free`, and the experiment's JSON,
    if written, names `what`."""
    def is_earlier(out):
        found = False
        for name, config in configs.items():
            if (out / name / runs.CHECKPOINT).exists():
                saved = saved_config(out / name)
                if saved is None or not same_config(saved, config, FREE | set(free)):
                    return False
                found = True
        report = out / next((r for r in results if r.endswith(".json")), "")
        if report.is_file():
            try:
                result = json.loads(read_small_text(report, runs.MAX_JSON,
                                                    message("what.result_file")))
            except (OSError, ValueError):
                return False
            return isinstance(result, dict) and result.get("experiment") == what
        return found
    return is_earlier


def write_json(path, result):
    """Write `result` as JSON to `path`; in an experiment's folder (experiment_folder's), with
    "model_folders" set to the names of the model folders it made, which its next run reads
    (_models)."""
    recorded = _RECORDED.get(str(Path(path).parent))
    if recorded is not None:
        result["model_folders"] = recorded
    text = json.dumps(result, indent=2, ensure_ascii=False, allow_nan=False)
    atomic_write(path, lambda file: file.write(text), text=True)



def trained(configs, log, announce="papers.training", note_level=True, pairs_file=None):
    """Train the model of each config, in order, each announced on the log (the message
    `announce`, its name the model's): yields (name, config, translator, cpu_seconds), the
    process time its training took (other programs on the machine do not count). `note_level`:
    as train's, False for a pairs file the experiment wrote from a built-in task; `pairs_file`:
    as train's, where the file config.task names is now (the experiment's .next)."""
    from seq2seq.commands.train import train

    for name, config in configs.items():
        log(message(announce, name=name))
        started = time.process_time()
        translator, _ = train(config, log=log, note_level=note_level, pairs_file=pairs_file)
        yield name, config, translator, time.process_time() - started


def write_results(out, files, result, figure, log, lines=()):
    """Log `lines` (the result as a table), write `result` as JSON to out/files[0] and draw the
    figure, `figure(path)`, to out/files[1] (none when `figure` is None: a command's --plot not
    given); say where. Returns `result`."""
    for line in lines:
        log(line)
    write_json(out / files[0], result)
    if figure is None:
        swap.say(out, log, message("papers.written", out="{out}", json=files[0]))
        return result
    figure(out / files[1])
    swap.say(out, log, message("papers.written_both", out="{out}", figure=files[1],
                               json=files[0]))
    return result
