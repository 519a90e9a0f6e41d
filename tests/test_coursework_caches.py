"""The grader's bytecode caches (__pycache__) are part of its files: a forged `.pyc`, stamped
with its source's time and size, is what every later process importing that module would run
(the grader's comparisons included). One written while the graded code runs fails that grading
and is removed; a cache that holds what its source compiles to (written by any process meanwhile)
is no change."""

import importlib.util
import marshal
import py_compile
import sys
from pathlib import Path
from unittest import mock

import pytest

from minigrad.grade import SolutionFailed, grade, process

from conftest import honest_layer_norm_file


def package_with_a_cache(tmp_path):
    """A package folder whose entry.py has its bytecode cache: (folder, source, cache)."""
    package = tmp_path / "package"
    package.mkdir()
    source = package / "entry.py"
    source.write_text("def verdict():\n    return 'failed'\n")
    cache = importlib.util.cache_from_source(str(source))
    py_compile.compile(str(source), cfile=cache, doraise=True)
    return package, source, cache


def written_by_c(cache, body):
    """Student code that writes the cache's 16-byte header (its source's stamp) followed by
    the marshalled code of `body`, through the C library (no audit event)."""
    return f"""
        import ctypes
        import marshal
        import os

        HEADER = open({cache!r}, "rb").read(16)
        DATA = HEADER + marshal.dumps(compile({body!r}, {cache!r}, "exec"))
        libc = ctypes.CDLL(None)
        fd = libc.open({cache.encode()!r}, os.O_WRONLY | os.O_TRUNC)
        libc.write(fd, DATA, len(DATA))
        libc.close(fd)
    """


def graded(tmp_path, package, code):
    (tmp_path / "student").mkdir()
    path = honest_layer_norm_file(tmp_path / "student", code)
    folders = process.project_folders() + [str(package)]
    with mock.patch.object(process, "project_folders", lambda: folders):
        return grade("layer_norm", path)


def test_a_forged_bytecode_cache_fails_the_grading_and_is_removed(tmp_path):
    package, source, cache = package_with_a_cache(tmp_path)
    forged = "def verdict():\n    return 'passed'\n"
    with pytest.raises(SolutionFailed) as caught:
        graded(tmp_path, package, written_by_c(cache, forged))
    assert str(caught.value).startswith(f"layer_norm: the grader's own files changed while your "
                                        f"code was graded ({cache}): the graded code wrote into "
                                        f"the grader (the changed bytecode caches were removed")
    assert not Path(cache).exists()
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location("e", source))
    module.__spec__.loader.exec_module(module)
    assert module.verdict() == "failed"


def test_a_cache_that_holds_what_its_source_compiles_to_is_no_change(tmp_path):
    package, source, cache = package_with_a_cache(tmp_path)
    assert graded(tmp_path, package, written_by_c(cache, source.read_text())).startswith(
        "passed: layer_norm")


def test_a_forged_cache_of_a_module_the_grader_loaded_fails_the_next_grading(tmp_path):
    """Forged while no grading ran, then loaded by the grader's process: that process may
    run the forged code, so it gives no verdict, and removes the cache."""
    package, source, cache = package_with_a_cache(tmp_path)
    spec = importlib.util.spec_from_file_location("forged_entry", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    header = Path(cache).read_bytes()[:16]
    Path(cache).write_bytes(header + marshal.dumps(compile(
        "def verdict():\n    return 'passed'\n", str(source), "exec")))
    sys.modules["forged_entry"] = module
    try:
        with pytest.raises(SolutionFailed) as caught:
            graded(tmp_path, package, "")
    finally:
        del sys.modules["forged_entry"]
    assert str(caught.value).startswith(f"layer_norm: the grader's bytecode caches were forged "
                                        f"before this grading ({cache})")
    assert not Path(cache).exists()
