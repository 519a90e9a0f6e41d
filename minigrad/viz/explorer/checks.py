"""The checks on `explore()`'s arguments, before any work: each bad argument is one line that
names it and says what is wrong, rather than a page that is empty, or wrong, without a word.

    check_arguments(...)      every argument but `collapse` and `variables` (check_names)
    check_collapse(ops, collapse)
                              scope names that exist in the graph (the error lists those that
                              do; `seq2seq draw` and `seq2seq explore` check theirs with it too)
"""

from collections.abc import Mapping

import numpy as np

from minigrad.autograd import Function
from minigrad.messages import message
from minigrad.settings import SettingError, SettingTypeError, check_number
from minigrad.tensor import Tensor


def check_arguments(root, grad, names, predict, predict_at, title, max_elements, max_bytes):
    """Raise TypeError or ValueError, one line, for the first bad argument of explore()."""
    if not isinstance(root, Tensor):
        raise TypeError(f"explore: root must be a Tensor, not {type(root).__name__}")
    if not root.requires_grad:
        raise ValueError(f"explore: root {root!r} does not require grad, so no backward pass "
                         "leads from it: explore a tensor computed from leaves that require grad")
    if root.creator is None:
        raise ValueError(f"explore: root {root!r} is a leaf (no op made it), so its backward pass "
                         "has no op to step through: explore a tensor computed from it, such as "
                         "(x * 2).sum()")
    _check_grad(root, grad)
    check_names(names)
    if not isinstance(predict, (bool, np.bool_)):
        raise TypeError(f"explore: predict must be True or False, not {predict!r}")
    _check_predict_at(predict_at)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"explore: title must be a string (or None), not "
                        f"{type(title).__name__}")
    check_text("title", title)
    check_number("max_elements", max_elements, low=0, integer=True, where="explore")
    check_number("max_bytes", max_bytes, low=0, integer=True, where="explore")


def _check_grad(root, grad):
    if grad is None:
        if root.data.size != 1:
            raise ValueError(f"explore: root has shape {root.shape}, not a single number: pass "
                             "grad=, the gradient arriving at it, an array of that shape")
        return
    array = np.asarray(grad.data if isinstance(grad, Tensor) else grad)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"explore: grad must be an array of numbers, not {array.dtype} "
                        f"({type(grad).__name__})")
    if array.shape != root.shape:
        raise ValueError(f"explore: grad has shape {array.shape}, but the root has shape "
                         f"{root.shape}: grad is the gradient arriving at the root")
    if not np.all(np.isfinite(array)):
        raise ValueError("explore: grad has NaN or infinite entries; the page shows the "
                         "gradients that flow from it, so it must be finite")


def check_names(names, what="names"):
    """`names` (or `variables`): None, a dict {name: tensor}, or (names only) a Module."""
    if names is None or (what == "names" and hasattr(names, "named_parameters")):
        return
    if not isinstance(names, Mapping):
        module = " or a Module" if what == "names" else ""
        raise TypeError(f"explore: {what} must be a dict {{name: tensor}}{module}, not "
                        f"{type(names).__name__}")
    for name, t in names.items():
        if not isinstance(name, str):
            raise TypeError(f"explore: {what}' keys are the labels, strings, not "
                            f"{type(name).__name__} ({name!r})")
        if not isinstance(t, Tensor):
            raise TypeError(f"explore: {what}[{name!r}] is a {type(t).__name__}, not a Tensor")
        check_text(f"{what}' key", name)


def check_text(what, text):
    """Text the page writes must be writable in UTF-8: a lone surrogate ("\\ud800", half of a
    pair) is not, and .save() would fail later, far from the cause."""
    if text is None:
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"explore: {what} {text!r} has a lone surrogate "
                         f"({text[error.start]!r}, half of a pair), which no UTF-8 page can "
                         "hold") from None


def _op_classes():
    """The names of every op class defined so far (Function's subclasses, at any depth)."""
    found, stack = set(), [Function]
    while stack:
        for cls in stack.pop().__subclasses__():
            if cls.__name__ not in found:
                found.add(cls.__name__)
                stack.append(cls)
    return found


def _check_predict_at(predict_at):
    if predict_at is None or (callable(predict_at) and not isinstance(predict_at, type)):
        return
    items = [predict_at] if isinstance(predict_at, (str, type)) else predict_at
    try:
        items = list(items)
    except TypeError:
        raise TypeError(f"explore: predict_at must be op class names, op classes or a function "
                        f"op -> bool, not {type(predict_at).__name__}") from None
    known = None
    for item in items:
        if isinstance(item, type):
            if not issubclass(item, Function):
                raise TypeError(f"explore: predict_at names {item.__name__}, which is not an op "
                                "class (a minigrad Function)")
        elif isinstance(item, str):
            known = _op_classes() if known is None else known
            if item not in known:
                raise ValueError(f"explore: predict_at names {item!r}, which is no op class "
                                 "(class names are case-sensitive: 'MatMul', 'Softmax', ...)")
        else:
            raise TypeError(f"explore: predict_at must hold op class names or op classes, not "
                            f"{type(item).__name__} ({item!r})")


def collapse_names(collapse, where="explore"):
    """`collapse` (None, one name, or several) as a tuple of names."""
    if collapse is None:
        return ()
    if isinstance(collapse, str):
        return (collapse,)
    try:
        names = tuple(collapse)
    except TypeError:
        raise SettingTypeError("collapse", message("explorer.collapse_not_names",
                                                   type=type(collapse).__name__),
                               where) from None
    for name in names:
        if not isinstance(name, str):
            raise SettingTypeError("collapse", message("explorer.collapse_not_strings",
                                                       type=type(name).__name__, name=name),
                                   where)
    return names


def check_collapse(ops, collapse, where="explore"):
    """The names of `collapse`, each the name of a scope some op of `ops` was recorded in; else
    a SettingError (a ValueError; on a command line, about --collapse) listing the scopes there
    are. `where` goes in front of the message (None: nothing, as a command line wants)."""
    names = collapse_names(collapse, where)
    there = {}                                          # every scope name, as first recorded
    for op in ops:
        there.update(dict.fromkeys(op.scope))
    unknown = [name for name in names if name not in there]
    if unknown:
        listed = (message("explorer.list_joiner").join(repr(name) for name in there) if there
                  else message("explorer.no_scopes"))
        raise SettingError("collapse", message(
            "explorer.no_such_scope", listed=listed,
            unknown=message("explorer.list_joiner").join(map(repr, unknown))), where)
    return names
