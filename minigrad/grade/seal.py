"""Results the graded code cannot write itself: every array the grader's code records in that
process is sealed as it is recorded, and the whole results file once more at the end, after the
final checks; the grader reads only what its seals vouch for.

The graded code runs in the process that writes the results, so it can reach the results file
(and `os._exit` before the final checks note what it did). The seal is an HMAC with a key the
grader sends through a pipe that the graded code's process reads and closes before the
student's file is loaded: the key is in no file, no argument and no environment variable there.
Each seal goes to the grader through a second pipe as it is made, so an array recorded, sealed
and then changed in place (during the gradient check's reruns, say) no longer matches its seal:

    array  NAME  sha256(dtype, shape, bytes)  hmac(key, ...)      one per array, as recorded
    end    -     sha256(the results file)     hmac(key, ...)      after the final checks

A results file without its end seal (the process ended first), with an array sealed otherwise
or not at all, fails. Not a wall: code in that process that walks the interpreter's frames to
the key, or reads its memory through the C API, can forge a seal; it guards against writing the
results file, and changing what was recorded, by plain means.
"""

import hashlib
import hmac
import os
import threading

import numpy as np

KEY_BYTES = 32
NO_END = ("no end",)            # Seals.unsealed's answer for a file without its end seal
MOST_SEALS = 1 << 22            # bytes of seals the grader reads; far more than grading makes


def digest(array):
    """sha256 of an array's dtype, shape and bytes, as hex."""
    array = np.ascontiguousarray(array)
    return hashlib.sha256(f"{array.dtype.str}{array.shape}".encode() + array.tobytes()).hexdigest()


def file_digest(path):
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _mac(key, kind, name, value):
    return hmac.new(key, f"{kind}\t{name}\t{value}".encode(), "sha256").hexdigest()


# ---- in the graded code's process ---------------------------------------------------------

def read_key(fd):
    """The key from the pipe `fd`, which is closed after: read before the student's file is
    loaded."""
    key = b""
    try:
        while len(key) < KEY_BYTES and (chunk := os.read(fd, KEY_BYTES - len(key))):
            key += chunk
    finally:
        os.close(fd)
    return key


def sealer(key, fd):
    """send(kind, name, value): one sealed line to the grader through the pipe `fd`."""

    def send(kind, name, value):
        line = f"{kind}\t{name}\t{value}\t{_mac(key, kind, name, value)}\n".encode()
        while line:
            line = line[os.write(fd, line):]

    return send


class Recorded(dict):
    """The results: each array copied as it is recorded, made read-only, and its seal sent at
    once, before any more of the student's code runs."""

    def __init__(self, send):
        super().__init__()
        self._send = send

    def __setitem__(self, name, value):
        array = np.array(value, copy=True)
        array.setflags(write=False)
        self._send("array", name, digest(array))
        super().__setitem__(name, array)

    def seal_end(self, path):
        """The end seal, of the results file written at `path`: sent after the final checks."""
        self._send("end", "-", file_digest(path))


# ---- in the grader's process -------------------------------------------------------------

class Seals:
    """The grader's end of the seals' pipe, read by a thread as they come; `check` then says
    what is wrong with a results file, or None."""

    def __init__(self, key, pipe):
        self.key, self.pipe, self.data = key, pipe, bytearray()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        try:
            while chunk := os.read(self.pipe, 1 << 16):
                if len(self.data) < MOST_SEALS:
                    self.data += chunk
        except OSError:
            pass

    def join(self):
        self.thread.join(timeout=5)
        try:
            os.close(self.pipe)
        except OSError:
            pass

    def sealed(self):
        """({array name: digest}, the end's file digest or None), from the valid lines."""
        arrays, end = {}, None
        for line in bytes(self.data[:MOST_SEALS]).decode(errors="replace").split("\n"):
            parts = line.split("\t")
            if len(parts) != 4 or not hmac.compare_digest(parts[3], _mac(self.key, *parts[:3])):
                continue
            kind, name, value = parts[:3]
            if kind == "array":
                arrays[name] = value
            elif kind == "end":
                end = value
        return arrays, end

    def unsealed(self, path, arrays):
        """None when the file at `path` holding `arrays` is the one the grader's code sealed,
        else what is wrong: NO_END (it never sealed it) or the first array's name not as
        sealed."""
        sealed, end = self.sealed()
        if end is None or not os.path.isfile(path) or file_digest(path) != end:
            return NO_END
        for name, array in arrays.items():
            if name != "meta" and sealed.get(name) != digest(array):
                return name
        return None
