"""The distribution, checked as a user gets it: build the sdist, build the wheel from the sdist,
install the wheel in a clean virtual environment and try it there, and run a fast part of the
sdist's own tests in its unpacked folder.

    .venv/bin/python .ci/check_package.py           # (make check-package)
    .venv/bin/python .ci/check_package.py --all     # the sdist's whole test suite
    .venv/bin/python .ci/check_package.py --keep    # keep the folder, print where it is

The build calls setuptools' PEP 517 hooks in the running environment (setuptools >= 77, from the
test extra), so nothing is downloaded to build. The clean environment gets the wheel's
dependencies from the package index pip is configured with. The wheel and the sdist's tests run
without the PYTHON* environment variables, as on a user's machine: PYTHONPATH would point at
other code, and PYTHONDONTWRITEBYTECODE or PYTHONUNBUFFERED, when set, hide what a Python that
writes .pyc files and buffers a piped stdout does. Exit status 0, or 1 and what is wrong.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("minigrad", "attention", "seq2seq")
NOT_IN_SDIST = (".ci/", ".gitignore")          # the repository's own, not the project's
# What the wheel holds of the packages: their modules, the script and style that the
# explorer's page is made of (minigrad/viz/explorer) and the graders' stored expected values
# (PACKAGE/grade/expected.npz; pyproject's package-data).
SHIPPED = ("*.py", "*.js", "*.css", "expected.npz")
# A few seconds of the suite, for what only a run shows: pytest's settings and conftest.py
# work from the sdist, the README's example runs there, LICENSE and pyproject.toml say what
# tests/test_packaging.py expects. (That every file is in the sdist is checked by name.)
FAST_TESTS = ("tests/test_engine.py", "tests/test_ops.py", "tests/test_packaging.py",
              "tests/test_docs.py::test_readme_example_runs_and_prints_what_it_shows")

# Run by the clean environment's Python, away from the checkout: every module of the wheel
# imports (with warnings as errors), from the environment; the version agrees with the
# metadata; a backward pass works; the graders' stored values are there and read, and no
# reference solution is.
SMOKE = """
import importlib, importlib.metadata as metadata, importlib.util, pkgutil, sys
import numpy as np
import minigrad, attention, seq2seq
from minigrad import Tensor
prefix, packages = sys.argv[1], (minigrad, attention, seq2seq)
for package in packages:
    assert package.__file__.startswith(prefix), f"{package.__name__} from {package.__file__}"
    assert package.__version__ == metadata.version("minigrad-course"), package.__version__
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
meta = metadata.metadata("minigrad-course")
assert meta["License-Expression"] == "MIT", meta["License-Expression"]
x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
(x * x).sum().backward()
assert np.array_equal(x.grad, [2.0, 4.0, 6.0]), x.grad
from minigrad.grade import exercises
from minigrad.grade.expected import stored
from attention.grade import exercises as attention_exercises
for found, name in ((exercises, "gru_cell"), (attention_exercises, "multi_head")):
    grading = found.EXERCISES[name]                 # the stored values read through their checks
    stored(found.EXPECTED, name)(grading.cases(), grading.outputs, grading.intermediates)
assert importlib.util.find_spec("minigrad.grade.reference") is None
print(len(sys.modules), "modules imported")
"""


class Failed(Exception):
    """A check that did not hold; the message says which."""


def run(command, cwd, what, env=None):
    """Run `command`; its output only if it fails."""
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise Failed(f"{what} failed (status {done.returncode}):\n{done.stdout}{done.stderr}")
    return done


def build(hook, source, out):
    """setuptools' PEP 517 hook `hook` run in `source`; the file it wrote in `out`. The
    egg-info folder it writes in `source` is removed, unless it was there before (in the
    checkout, importlib.metadata would find it and take it for an installed distribution)."""
    info = Path(source) / "minigrad_course.egg-info"
    existed = info.exists()
    code = f"from setuptools import build_meta; print(build_meta.{hook}({str(out)!r}))"
    try:
        done = run([sys.executable, "-c", code], source, f"{hook} in {source}")
    finally:
        if not existed:
            shutil.rmtree(info, ignore_errors=True)
    return out / done.stdout.strip().splitlines()[-1]


def unpack(sdist, into):
    with tarfile.open(sdist) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(into, filter="data")
        else:                                        # our own archive, just built
            archive.extractall(into)
    [folder] = Path(into).iterdir()
    return folder


def tracked_files():
    """The checkout's files under version control, or None outside a git checkout."""
    try:
        done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                              check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return {f for f in done.stdout.splitlines() if not f.startswith(NOT_IN_SDIST)}


def check_sdist(folder):
    have = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    tracked = tracked_files()
    missing = sorted((tracked or set()) - have)
    if missing:
        raise Failed(f"the sdist lacks {', '.join(missing)} (MANIFEST.in)")
    for needed in ("LICENSE", "README.md", "tests/conftest.py", "docs/coursework.md"):
        if needed not in have:
            raise Failed(f"the sdist lacks {needed} (MANIFEST.in)")


def check_wheel(wheel, sdist_folder, version):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"minigrad_course-{version}.dist-info"
        metadata = archive.read(f"{info}/METADATA").decode()
    modules = {p.relative_to(sdist_folder).as_posix() for package in PACKAGES
               for pattern in SHIPPED for p in (sdist_folder / package).rglob(pattern)}
    if modules - names:
        raise Failed(f"the wheel lacks {', '.join(sorted(modules - names))}")
    references = sorted(n for n in names if "reference" in n.rsplit("/", 1)[-1])
    if references:
        raise Failed(f"the wheel holds reference solutions, which stay in tests/reference/: "
                     f"{', '.join(references)}")
    strays = sorted(n for n in names - modules if not n.startswith(info + "/"))
    if strays:
        raise Failed(f"the wheel holds more than the three packages: {', '.join(strays)}")
    expected = ("Name: minigrad-course", f"Version: {version}", "License-Expression: MIT",
                "License-File: LICENSE")
    for line in expected:
        if line not in metadata.splitlines():
            raise Failed(f"the wheel's METADATA has no line {line!r}")
    if f"{info}/licenses/LICENSE" not in names:
        raise Failed("the wheel does not carry the LICENSE")


def clean_environment(folder, wheel):
    """A new virtual environment holding the wheel and its dependencies; its Python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", folder], check=True)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-compile",
         "--disable-pip-version-check", wheel], folder, "installing the wheel")
    return python


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="the sdist's whole test suite")
    parser.add_argument("--keep", action="store_true", help="keep the working folder")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="check-package-"))
    started = time.perf_counter()

    def step(text):
        print(f"[{time.perf_counter() - started:5.1f} s] {text}", flush=True)

    try:
        step("building the sdist")
        sdist = build("build_sdist", ROOT, work)
        for_wheel, for_tests = unpack(sdist, work / "build"), unpack(sdist, work / "sdist")
        check_sdist(for_tests)
        step("building the wheel from the sdist")
        wheel = build("build_wheel", for_wheel, work)
        version = sdist.name.removeprefix("minigrad_course-").removesuffix(".tar.gz")
        check_wheel(wheel, for_tests, version)
        step("installing the wheel in a clean environment")
        python = clean_environment(work / "venv", wheel)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        prefix = run([python, "-c", "import sys; print(sys.prefix)"], work, "python").stdout
        step("trying it there: every module, the version, a backward, python -m seq2seq --help")
        run([python, "-W", "error", "-c", SMOKE, prefix.strip()], work, "the smoke check", env)
        usage = run([python, "-W", "error", "-m", "seq2seq", "--help"], work, "seq2seq --help",
                    env).stdout
        if not usage.startswith("usage: python -m seq2seq"):
            raise Failed(f"python -m seq2seq --help printed {usage[:200]!r}")
        step("the sdist's tests" + ("" if args.all else ": " + ", ".join(FAST_TESTS)))
        where = run([sys.executable, "-c", "import minigrad; print(minigrad.__file__)"],
                    for_tests, "importing minigrad in the sdist").stdout.strip()
        if not Path(where).is_relative_to(for_tests):
            raise Failed(f"the sdist's tests would test {where}, not the sdist's code")
        tests = [] if args.all else list(FAST_TESTS)
        run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
            for_tests, "the sdist's tests", dict(env, MPLBACKEND="Agg"))
        step(f"done: {wheel.name} {wheel.stat().st_size / 1024:.0f} KiB, "
             f"{sdist.name} {sdist.stat().st_size / 1024:.0f} KiB")
    except Failed as failure:
        print(f"check_package: {failure}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
