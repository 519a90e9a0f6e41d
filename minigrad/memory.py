"""Keeping freed memory for reuse, for long training runs on Linux; and how much memory there
is to use, for size checks made before a large allocation (`available_bytes()`).

minigrad keeps every intermediate array of the graph until backward has run (so a student can
look at any of them), and frees them all when the graph goes. By default glibc's malloc gives
big freed blocks back to the system at once, and the next step's forward pass asks for them
again: every new page costs a page fault. `keep_freed_memory()` tells malloc to keep freed
memory and reuse it instead, as the allocators of the big frameworks do. The process then holds
on to its peak memory. It changes nothing but speed, and only in this process.
"""

import ctypes

M_TRIM_THRESHOLD = -1     # from glibc's <malloc.h>: free memory above this goes back to the system
M_MMAP_THRESHOLD = -3     # blocks above this get their own mapping, unmapped on free


def keep_freed_memory(limit=2 ** 30):
    """Ask glibc's malloc to keep up to `limit` bytes of freed memory for reuse. Returns True
    where that worked, False where the C library is not glibc (nothing changes there)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(M_TRIM_THRESHOLD, limit)
                    and libc.mallopt(M_MMAP_THRESHOLD, min(limit, 32 * 2 ** 20)))
    except (OSError, AttributeError):
        return False


def available_bytes():
    """The memory the system could give this process now without swapping (Linux's
    MemAvailable, which counts the caches it can drop), in bytes; None where it cannot be read.
    A size check before a large allocation compares with it (seq2seq.commands.sizes)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as file:
            for line in file:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024          # the file says kB: KiB
    except (OSError, ValueError, IndexError):
        pass
    return None
