"""The files the graded code's process may open for reading (audit.py): an allowlist.

Refusing the answers' known paths (expected.npz, tests/reference/ of this clone) leaves every
other copy of them open: the clone's git object store (.git/objects holds every version of
tests/reference/, read with plain `open()`), another checkout of the project, an installed
copy. So the graded code may read only what it needs to run:

- the Python installation (sys.prefix, sys.base_prefix, sys.exec_prefix, site-packages);
- the project's own package folders (minigrad/, attention/, seq2seq/);
- the folder of the student's file (a module or data beside it), and the grading's temporary
  folder;
- the process's own files under /proc, /dev/null, /dev/urandom, /dev/zero, and the system's
  library and data folders that libraries read (/usr/lib, /usr/share, /etc, the CPU's
  description under /sys and /proc).

Anywhere, even in those places, a `.git` folder's contents are refused; and the answers'
own files (process.blocked_files) are refused before this is asked. A file that does not exist
may be named: the call fails and reads nothing (libraries look for optional files so).
"""

import os
import site
import sys

SYSTEM = ("/usr/lib", "/usr/lib64", "/usr/local/lib", "/lib", "/lib64", "/usr/share",
          "/usr/local/share", "/etc", "/sys/devices/system/cpu", "/sys/fs/cgroup")
SYSTEM_FILES = ("/dev/null", "/dev/urandom", "/dev/random", "/dev/zero", "/proc/cpuinfo",
                "/proc/meminfo", "/proc/stat", "/proc/filesystems", "/proc/mounts",
                "/proc/sys/vm/overcommit_memory", "/proc/sys/kernel/osrelease")


def readable_places(solution_folder, scratch, project):
    """(folders, files) the graded code may read: each folder with all in it, as real paths
    ending in os.sep; each file as its real path."""
    installed = [sys.prefix, sys.base_prefix, sys.exec_prefix, site.getusersitepackages()]
    installed += site.getsitepackages()
    folders = installed + list(project) + [solution_folder, scratch, f"/proc/{os.getpid()}"]
    folders += list(SYSTEM)
    places = tuple(sorted({os.path.realpath(folder).rstrip(os.sep) + os.sep
                           for folder in folders if folder}))
    return places, frozenset(os.path.realpath(file) for file in SYSTEM_FILES)


def unreadable(path, readable):
    """Why the graded code may not read `path` (a str or bytes, as the call named it): "git"
    (a git folder's contents), "outside" (outside the places it may read); or None when it
    may. A kind: audit.py makes the reason's words (refusals.py)."""
    text = os.fsdecode(path)
    full = os.path.realpath(text)
    for candidate in (os.path.abspath(text), full):
        parts = candidate.split(os.sep)
        if ".git" in parts[:-1] or parts[-1] == ".git":
            return "git"
    folders, files = readable
    if full in files or full + os.sep in folders or full.startswith(folders) or \
            not os.path.lexists(full):          # no such file: the call fails, reads nothing
        return None
    return "outside"
