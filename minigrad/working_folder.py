"""The project's commands run with the working folder off the front of the module path.

`python -m seq2seq ...` (and `python -m attention`, `python -m minigrad.grade`, every command
of the three packages) puts the working folder first on `sys.path`, before the standard library
and the installed packages: that is how Python runs a module. So a `shlex.py` or a `tempfile.py`
in the folder the command runs in would be imported instead of the real one, and run: from a
run folder someone sent (`cd their-run && python -m seq2seq evaluate .`), or beside a solution
being graded (`python -m minigrad.grade gru_cell my_gru.py` from its own folder), where it
could change the verdict. The commands read data from those folders; they must not run it.

`leave_front_of_path()` is called by `minigrad/__init__.py` before it imports anything else
(every package of the project imports minigrad first), so before NumPy and the rest are
imported. When the interpreter was started as `python -m` one of the project's modules and
the working folder is first on the path, it starts the same command again in the same process
(`os.execv`: the same process id, the same open files) with the working folder taken off the
front: `python [options] -c RUNNER ARGS`, where RUNNER takes it off and runs the module as `-m`
does (`runpy.run_module`). What Python itself imported before that point (its start-up
modules, `runpy`) comes from the standard library, as it does for any `python -m`.

The working folder then is not on the path at all, except when it is the folder that holds the
project's packages (a clone used without installing it): there it goes last, after everything
else, so `python -m seq2seq` still finds the project, and a module of the clone shadows nothing.

What this cannot reach: a minigrad.py or a `minigrad/` folder in the working folder is
imported in the project's place before any of its code runs, this module's included (and the
same for `seq2seq` and `attention` when it is their command). `python -P -m ...` (3.11) or a
command run from another folder leaves the working folder out from the start.

Python 3.11's `python -P` does the same from the start; this does nothing then (the path's first
entry is not the working folder), nor for any other module run with -m (`python -m pytest`),
nor off POSIX systems (where `os.execv` starts another process instead).
"""

import os
import sys

PACKAGES = ("minigrad", "attention", "seq2seq")

RUNNER = ("import sys; sys.path.pop(0); import os, runpy; {keep}"
          "runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")


def module_run(argv):
    """(index of -m, module name) if `argv` (the interpreter's own command line) runs one of
    the project's modules with -m, else None."""
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "-m" and i + 1 < len(argv):
            module = argv[i + 1]
        elif word.startswith("-m") and len(word) > 2:
            module = word[2:]
        elif word in ("-X", "-W"):              # options that take the next word
            i += 2
            continue
        elif word.startswith("-") and word not in ("-", "-c"):
            i += 1
            continue
        else:
            return None                         # a script, -c or stdin: not -m
        return (i, module) if module.split(".")[0] in PACKAGES else None
    return None


def restart_command(argv, path, working, project_parent):
    """The command line that runs the same module without the working folder in front, or
    None when there is nothing to do (path[0] is not the working folder, or not a -m run)."""
    run = module_run(argv)
    if run is None or not path or os.path.abspath(path[0] or ".") != working:
        return None
    i, module = run
    rest = argv[i + 2:] if argv[i] == "-m" else argv[i + 1:]
    keep = "sys.path.append(os.getcwd()); " if project_parent == working else ""
    return [sys.executable, *argv[1:i], "-c", RUNNER.format(keep=keep, module=module), *rest]


def leave_front_of_path():
    """Start the command again without the working folder in front of the module path, when it
    is there (this module's docstring); otherwise return."""
    if os.name != "posix" or not hasattr(sys, "orig_argv"):
        return
    try:
        working = os.getcwd()
    except OSError:                             # the working folder was removed: no module
        return                                  # can come from it
    project_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    command = restart_command(sys.orig_argv, sys.path, working, project_parent)
    if command is not None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, command)
