"""Every thread of the graded code's process watched, those its file started while it was
imported included.

A profile hook (`sys.setprofile`) belongs to one thread, and `threading.setprofile` gives one
only to the threads started after it is called. A file that starts a thread when it is imported
(`_pool = ThreadPoolExecutor(1)`, with one task run at once so that its worker starts) and hands
that worker the work of its graded function would have the work run unwatched, were the watch
handed to new threads only when the function is called. So the graded code's process gives
every thread started from before the student's file is imported one hook, `relay`
(child.py), and the watches (answers.watching, by_hand.forward_watch) each add what they look
for in other threads while they are open. With none open, `relay` does nothing.

What a thread started with `_thread.start_new_thread` runs is not watched: threading's hook for
new threads does not reach it (and Python 3.11 raises no audit event for it).
"""

import threading
from contextlib import contextmanager

# Taken when this module is imported, before any student's file is: a file that replaces
# threading.setprofile with a function that does nothing does not switch the relay off.
thread_setprofile = threading.setprofile
thread_getprofile = threading.getprofile

watches = []        # what the open watches look for in every thread other than the main one


def relay(frame, event, arg):
    """The profile hook of every thread but the main one: each open watch's look."""
    for look in tuple(watches):
        look(frame, event, arg)


def watch_every_thread():
    """From now on, every new thread runs `relay` (child.py calls this before the student's
    file is imported)."""
    thread_setprofile(relay)


@contextmanager
def in_other_threads(look):
    """While the block runs, `look(frame, event, arg)` sees every call in the threads other
    than the main one: those started before the block (through `relay`, when
    watch_every_thread was called) and those started in it."""
    before = thread_getprofile()
    if before is not relay:
        thread_setprofile(relay)
    watches.append(look)
    try:
        yield
    finally:
        watches.remove(look)
        if before is not relay:
            thread_setprofile(before)
