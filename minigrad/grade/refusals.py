"""Why the guard of the graded code's process refused something, and the failure line that
says so (audit.py, paths.py, torch_files.py, child.py).

A reason has a kind and the values its words name: reason("writes", path="/x/y") is the
catalogue's `guard.writes` ('writes to /x/y', or '/x/y に書き込もうとしました'), a str that
keeps its `kind` and `values`. The failure line around it is chosen by its kind (FAILURES),
never by reading its words, so that both come out in the language of the messages.
"""

import tempfile

from minigrad.messages import message

# kind -> the failure line's key; any other kind: "refusal.hides" (it would hide from the
# grader whether an answer runs)
FAILURES = {
    "opens": "refusal.opens",                               # a blocked file: an answer
    "opens_process": "refusal.other_process",
    "writes": "refusal.writes", "writes_by_folder": "refusal.writes",
    "reads_git": "refusal.reads", "reads_outside": "refusal.reads",
    "path_object": "refusal.path_object",
    "replaces": "refusal.guard",
    "torch_past_finder": "refusal.torch", "torch_unchecked": "refusal.torch",
    "torch_not_module": "refusal.torch_modules", "torch_lacks": "refusal.torch_modules",
    "signal": "refusal.signal",
}


class Reason(str):
    """A reason's words in the language of the messages ('writes to /x/y'), with its `kind`
    and `values` (set by `reason`, which makes every one)."""


def reason(kind, **values):
    """The Reason of `kind`, its words filled from `values`. Made by str.__new__, its
    attributes set after: what comes back is a Reason, or the call raises; never None, nor
    whatever a class of the graded code's process, changed by that code, might make. The
    audit hook refuses an event when this is not None, and refuses it when this raises."""
    why = str.__new__(Reason, message(f"guard.{kind}", **values))
    why.kind, why.values = kind, values
    return why


def refusal_text(exercise, why):
    """The failure message for `why`, a Reason or a (kind, values) pair; `exercise` the
    exercise as the request names it (a dict with its name)."""
    why = why if isinstance(why, Reason) else reason(why[0], **why[1])
    return message(FAILURES.get(why.kind, "refusal.hides"), name=exercise["name"], why=why,
                   folder=tempfile.gettempdir())
