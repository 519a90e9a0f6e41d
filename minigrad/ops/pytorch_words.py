"""PyTorch's words for NumPy's: `dim` for `axis`, `keepdim` for `keepdims`.

Every function of minigrad that takes `axis` (or `keepdims`) takes PyTorch's word too, so a habit
brought from PyTorch works: `x.sum(dim=1, keepdim=True)` is `x.sum(axis=1, keepdims=True)`.
Both words at once is an error, not a silent choice of one:

    x.sum(axis=0, dim=1)    TypeError: sum: got both axis=0 (NumPy's word) and dim=1 (PyTorch's)

Python cannot tell `f(x)` from `f(x, axis=-1)` when -1 is the default, so `axis` counts as given
when it differs from its default.
"""


def axis_or_dim(where, axis, dim, default=None, empty_dim=None):
    """`dim` if it was given (not None), else `axis`. `where` names the function in the error.
    An empty `dim`, () or [], means what it means in PyTorch, `empty_dim`: every axis (None) for
    a reduction, as in `x.sum(dim=())`, where NumPy's `axis=()` is no axis at all; no axis, (),
    for `squeeze`, as in `x.squeeze(dim=())`."""
    if dim is None:
        return axis
    if axis != default:
        raise TypeError(f"{where}: got both axis={axis!r} (NumPy's word) and dim={dim!r} "
                        "(PyTorch's); pass one of them")
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        return empty_dim
    return dim


def keepdims_or_keepdim(where, keepdims, keepdim):
    """`keepdim` if it was given (not None), else `keepdims` (whose default is False)."""
    if keepdim is None:
        return keepdims
    if keepdims is not False:
        raise TypeError(f"{where}: got both keepdims={keepdims!r} (NumPy's word) and "
                        f"keepdim={keepdim!r} (PyTorch's); pass one of them")
    return keepdim
