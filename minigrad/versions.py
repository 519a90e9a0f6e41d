"""Version counters: an array saved for backward and then changed in place is an error, always.

    x = Tensor([1.0, 2.0], requires_grad=True)
    w = Tensor([3.0, 4.0], requires_grad=True, name="w")
    y = (x * w).sum()              # Mul saves w's own array for its backward (dL/dx = dL/dy * w)
    w.data -= 1                    # changes that very array
    y.backward()                   # SavedArrayError: Mul, input 1 'w' (a leaf, shape (2,)), ...

Without the check, backward would quietly give x.grad = [2, 3], the slope at values the forward
never used (the true one is [3, 4]). PyTorch raises here too, with its version counters; this is
the same idea, made as cheap as the engine allows.

How it works, and why this way:
- Every in-place change made through a tensor moves one clock shared by all tensors, stamps the
  tensor with the clock's new reading (`t._version`: 0 when never changed, larger after each
  change; PyTorch's counts per tensor) and notes the array in `changed`. The changes that go
  through a tensor: `t.data -= 1` (NumPy changes the array, then Python assigns the same array
  back to `t.data`: the `data` setter sees that it is the same array), `t -= 1` and the other
  in-place operators (below), and the optimisers' steps (`p.data -= ...`).
- An op that records itself in the graph notes the clock (`op.recorded_at`): one number, not one
  per input, so the forward pays one attribute. When backward reaches the op, it compares that
  number with the clock; equal (the usual case: nothing changed in place since the forward)
  costs nothing more, and the op's backward runs.
- Otherwise each array changed since the op was recorded is compared with the arrays the op
  saved for backward (the arrays its class names in `saves`): if they share memory,
  that is the error. Memory, not tensors: a change made through a view (`w.T` is a view of w's
  array, so are `w[0]`, `w.reshape(...)`, `w.detach()`) reaches every tensor that shares the
  array, as PyTorch's views share their base's version counter; an `nn.Linear` saves its
  weight through `W.T`. An op that saved nothing of the changed array (`Add` keeps only shapes,
  `Tanh` only its output) computes the right gradient anyway, so that is no error, as in
  PyTorch.
- Assigning a different array (`t.data = new_array`) is no in-place change and moves nothing:
  the array an op saved is untouched, so backward computes the gradient of the forward that ran,
  at the values it ran with (PyTorch's `t.data = ...` does not bump either). `load_state_dict`,
  the `init` functions and `Module.to` assign new arrays this way. A new array of another
  shape leaves the leaf's old `.grad` unfit to add to: the next backward raises, naming the
  tensor and both shapes, until `zero_grad()` (autograd.keep_grad).
- Integer and boolean index arrays (`x[idx]`, `F.embedding`'s ids, `F.where`'s condition) are
  copied by their op when it is made, so a caller who changes its own array after the forward
  changes nothing backward uses: NumPy arrays have no version counter to catch that.

What it does not see: writes into the array that bypass the tensor, such as `t.data[i] = v`
and `t.data[...] = v` (NumPy's __setitem__, which no setter of ours sees), `np.add(a, b,
out=t.data)`, and writes into an array you hold yourself (`a = t.data; a *= 2`).
`minigrad.debug.guard_saved()` catches those too: it fingerprints every saved array after the
forward and compares the bytes before backward, which costs far more and is therefore opt-in.

In-place operators (`+=`, `-=`, `*=`, `/=`) follow PyTorch's rules where minigrad can:
- under `no_grad()`, or when neither side requires grad: the array changes in place, the tensor
  keeps its identity (a model's Parameter really changes) and its stamp moves;
- on a leaf that requires grad while the graph is recorded: an error, as in PyTorch (it would
  change a value the graph has already used; do it under `no_grad()`, as an optimiser does);
- otherwise (a tensor in the graph, or a right-hand side that requires grad): minigrad's graph
  has no in-place ops, so `y += 1` is `y = y + 1`, a new tensor recorded in the graph (PyTorch
  changes y itself; other names bound to the old y keep the old value here).
"""

import weakref

import numpy as np

from minigrad import grad_mode

clock = 0           # moves on at every in-place change made through a tensor
changed = {}        # id(array) -> (clock, weakref to the array): each array changed in place
                    # through a tensor and still alive, with the clock of its last change; oldest
                    # first. One entry per array, so it stays as small as the set of such arrays.


class SavedArrayError(RuntimeError):
    """An array saved for backward was changed after the forward pass saved it."""


def bump(t):
    """Note that t's array was just changed in place: move the clock, stamp t with it, and note
    the array (weakly: the note goes when the array does). A view's change is noted on the
    array it views (its base), which lives as long as its owner, not as long as the view: a
    change through a temporary view (`w.reshape(-1) /= 2` in a helper) is not forgotten."""
    global clock
    clock += 1
    t._version = clock
    array = t._data
    while isinstance(array, np.ndarray) and isinstance(array.base, np.ndarray):
        array = array.base
    if isinstance(array, np.ndarray):
        key = id(array)
        changed.pop(key, None)                  # re-inserted last: the dict stays oldest first
        changed[key] = (clock, weakref.ref(array, lambda ref: _forget(key, ref)))


def _forget(key, ref):
    if changed.get(key, (0, None))[1] is ref:
        del changed[key]


# ---- the check in backward ---------------------------------------------------------------------

def check(op, out):
    """Called by the backward pass when the clock moved since `op` was recorded: raise if an array
    changed in place since then shares memory with an array `op` saved for backward. Memory, not
    tensors: a change made through a view (`w.T`, `w[0]`, `w.detach()`) reaches the arrays of all
    the tensors that share it, as PyTorch's views share their base's version counter."""
    saved = None
    for stamp, ref in reversed(tuple(changed.values())):   # newest first (a copy: an array that
        if stamp <= op.recorded_at:                         # dies meanwhile leaves `changed`)
            break                                           # changed before the op: fine
        array = ref()
        if array is None:
            continue
        if saved is None:
            saved = list(saved_arrays(op))
        for name, kept in saved:
            if np.may_share_memory(kept, array) and np.shares_memory(kept, array):
                raise SavedArrayError(explain(op, out, name, kept))


def saved_arrays(op, with_settings=True):
    """(name, array) for each array the op declares it keeps for backward, in `saves` and (with
    `with_settings`) in `settings` (`Where`'s cond, `GetItem`'s index): `y` for self.y,
    `index[1]` for an array inside a tuple or list. The list `guard_saved` fingerprints; the
    drawings show those of `saves`."""
    for name in (op.saves + op.settings) if with_settings else op.saves:
        value = getattr(op, name, None)
        if isinstance(value, np.ndarray):
            yield name, value
        elif isinstance(value, (tuple, list)):
            for k, part in enumerate(value):
                if isinstance(part, np.ndarray):
                    yield f"{name}[{k}]", part


def explain(op, out, name, kept):
    """The error's text: which op, which saved array, whose data it is, what to do instead.
    `guard_saved` raises the same text."""
    from minigrad.debug.watch import where_created  # only when there is an error to explain
    lines = [f"{type(op).__name__}.backward would use self.{name}, an array saved for backward: "
             f"{_owner(op, out, kept)}, changed in place after the forward.",
             "  Its backward would compute the gradient at the new values, not at those the "
             "forward used. Change it after backward (as optimizer.step() does, then run the "
             "forward again), or make a new tensor instead (x = x - 1, not x.data -= 1 or x -= 1 "
             "under no_grad)."]
    site = where_created(op)
    lines.append(site if site else "  (Under minigrad.debug.record_sites() this names the line "
                                   "that created the op.)")
    return "\n".join(lines)


def _owner(op, out, kept):
    """Whose data the saved array is, in words; through views up to the tensor they view."""
    for i, x in enumerate(op.inputs):
        if np.may_share_memory(x._data, kept):
            return f"the data of input {i}, {describe(x)}{_viewed(x)}"
    if np.may_share_memory(out._data, kept):
        return f"the data of its output, {describe(out)}"
    return "an array of its own"


def _viewed(t):
    """', a view of 'w' (a leaf, shape (3,))' when t's array is a view of an input of its creator
    (Transpose, Reshape, GetItem ...), followed up to the first tensor that is no view."""
    root = t
    while root.creator is not None:
        parent = next((x for x in root.creator.inputs
                       if np.may_share_memory(x._data, root._data)), None)
        if parent is None:
            break
        root = parent
    return "" if root is t else f", a view of {describe(root)}"


def describe(t):
    """A tensor in words: 'w' (a leaf, shape (2,))."""
    kind = "a leaf" if t.creator is None else f"made by {type(t.creator).__name__}"
    name = repr(t.name) if t.name is not None else "unnamed"
    return f"{name} ({kind}, shape {t.shape})"


# ---- in-place operators ------------------------------------------------------------------------

def in_place(t, other, ufunc, symbol, out_of_place):
    """`t += other` and the like (see the module's docstring for the rules). `ufunc` changes the
    array (np.add, ...); `out_of_place(t, other)` is the op to record instead in the graph."""
    other_requires_grad = getattr(other, "requires_grad", False)
    if grad_mode.enabled and (t.requires_grad or other_requires_grad):
        if t.requires_grad and t.creator is None:
            raise RuntimeError(
                f"{describe(t)} {symbol} ...: a leaf that requires grad cannot be changed in "
                "place while the graph is recorded (its old value may be in the graph already). "
                f"Do it under `with minigrad.no_grad():`, as an optimiser step does, or write "
                f"x = x {symbol[0]} ... for a new tensor")
        return out_of_place(t, other)                   # a new tensor, recorded in the graph
    value = other._data if hasattr(other, "_data") else other
    try:
        ufunc(t._data, value, out=t._data, casting="same_kind")
    except (TypeError, ValueError) as error:
        kind = TypeError if isinstance(error, TypeError) else ValueError   # NumPy's own
        raise kind(f"{describe(t)} {symbol} {_what(value)}: {error} (an in-place operation "
                   f"keeps the tensor's shape and dtype; x = x {symbol[0]} ... makes a new "
                   "tensor)") from error
    bump(t)
    return t


def _what(value):
    shape, dtype = np.shape(value), getattr(value, "dtype", type(value).__name__)
    return f"a value of shape {shape}, {dtype}"
