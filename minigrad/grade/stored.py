"""Attributes read as they are stored, without running any code of the object they are read
from: what the graded code's process checks after the student's code has run (torch_files.py,
when the results are handed back) must not run that code again, with the watch over.

`getattr(module, "__spec__")` runs a property of a module's class, or a module's own
`__getattr__` for a name it lacks; `isinstance` asks an object's `__class__`, which a property
can answer; even `name in namespace` runs the `__eq__` of a key whose hash is the name's. So
here a class's attributes are read from the dicts of its MRO, a module's from its dict, each
through the C getters of `type` and `types.ModuleType` (which no subclass can replace), keys
compared only when they are plain `str`; an instance of any other kind (but a ModuleSpec, whose
class is importlib's) is read as having no attributes.
"""

import importlib.machinery
import types

MISSING = object()                      # no such attribute, or not one read without its code
TYPE_MRO = type.__dict__["__mro__"].__get__
TYPE_DICT = type.__dict__["__dict__"].__get__
MODULE_DICT = types.ModuleType.__dict__["__dict__"].__get__
PLAIN = (importlib.machinery.ModuleSpec,)       # instances whose own dict is read


def entry(mapping, name):
    """The value under the str `name` in the dict (or a class's mappingproxy) `mapping`, found
    by going through its items, comparing only keys that are plain str; else MISSING."""
    items = dict.items(mapping) if type(mapping) is dict else \
        types.MappingProxyType.items(mapping)
    for key, value in items:
        if type(key) is str and str.__eq__(key, name):
            return value
    return MISSING


def stored(owner, name):
    """`owner`'s attribute `name` as stored (a function, not a bound method; a descriptor, not
    what it gives), or MISSING: from the dicts of a class's MRO, from a module's dict, from
    the dict of a ModuleSpec; any other object is read as having none."""
    kind = type(owner)
    if issubclass(kind, type):
        for cls in TYPE_MRO(owner):
            found = entry(TYPE_DICT(cls), name)
            if found is not MISSING:
                return found
        return MISSING
    if issubclass(kind, types.ModuleType):
        return entry(MODULE_DICT(owner), name)
    if any(kind is plain for plain in PLAIN):
        return entry(object.__getattribute__(owner, "__dict__"), name)
    return MISSING


def own(cls, name):
    """`cls`'s attribute `name` when it is in its own dict (not inherited); else MISSING."""
    return entry(TYPE_DICT(cls), name) if issubclass(type(cls), type) else MISSING
