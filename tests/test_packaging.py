"""What the distribution says about itself: one version, written once in minigrad/__init__.py
and read from there by the build; the three packages import without a warning. (Building the
sdist and the wheel, installing the wheel in a clean environment and running the sdist's tests
is .ci/check_package.py, run by CI.)"""

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

import minigrad
import attention
import seq2seq

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "minigrad-course"
RELEASE = re.compile(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")   # PEP 440, public


def test_the_three_packages_carry_one_version_and_it_is_a_release_number():
    assert RELEASE.fullmatch(minigrad.__version__), minigrad.__version__
    assert attention.__version__ == seq2seq.__version__ == minigrad.__version__


def test_the_build_reads_the_version_from_minigrad_without_importing_it():
    """setuptools' attr: reads the line statically, as the build environment has no NumPy; a
    computed __version__ would make it import the package, and the build would fail. Here NumPy
    cannot be imported, so only a static read succeeds."""
    tomllib = pytest.importorskip("tomllib")
    pytest.importorskip("setuptools.config.expand")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["name"] == DISTRIBUTION
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "minigrad.__version__"}
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from setuptools.config.expand import read_attr\n"
            "print(read_attr('minigrad.__version__', root_dir='.'))\n"
            "assert 'minigrad' not in sys.modules")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == minigrad.__version__


def test_an_installed_distribution_reports_the_same_version():
    try:
        installed = importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{DISTRIBUTION} is not installed (a plain checkout)")
    assert installed == minigrad.__version__


def test_the_license_is_mit_and_named_by_an_spdx_expression():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the minigrad authors\n")


def test_importing_the_packages_and_their_commands_raises_no_warning():
    """-W error turns any warning into an error: a DeprecationWarning from a dependency, a
    RuntimeWarning from running a module twice (python -m of a module imported by its
    package's __init__)."""
    modules = ("minigrad", "attention", "seq2seq", "minigrad.viz", "minigrad.grade",
               "attention.grade", "seq2seq.grade", "seq2seq.commands.cli", "attention.draw",
               "seq2seq.commands.draw")
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    run = subprocess.run([sys.executable, "-W", "error", "-c", code, *modules], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    for command in ("seq2seq", "attention", "minigrad.grade", "seq2seq.grade", "minigrad.viz"):
        run = subprocess.run([sys.executable, "-W", "error", "-m", command, "--help"], cwd=ROOT,
                             capture_output=True, text=True, check=False)
        assert run.returncode == 0 and run.stderr == "", (command, run.stderr)


def test_the_tests_the_package_check_runs_from_the_sdist_exist():
    """.ci/check_package.py names a few tests to run from the sdist; a test renamed here would
    make that run collect nothing and fail CI only at its very end."""
    check = ROOT / ".ci" / "check_package.py"
    if not check.is_file():
        pytest.skip("the repository's .ci/ is not in the sdist, whose tests this check runs")
    source = check.read_text(encoding="utf-8")
    listed = re.search(r"FAST_TESTS = \((.*?)\)\n", source, re.DOTALL).group(1)
    for test in re.findall(r'"([^"]+)"', listed):
        path, _, name = test.partition("::")
        assert (ROOT / path).is_file(), test
        if name:
            assert re.search(rf"^def {re.escape(name)}\(", (ROOT / path).read_text(
                encoding="utf-8"), re.MULTILINE), test
