# Set-up is part of every target: a fresh clone needs only Python >= 3.10 and make.
#   make demo        the main job
#   make test        the linter (make lint), then the whole test suite, slow tests included
#                    (what CI runs)
#   make bench       the benchmarks (one BLAS thread)
#   make notebooks   the tutorials as Jupyter notebooks, in notebooks/ (the Japanese in notebooks/ja/)
#   make pages       the explorer's gallery, docs/pages/: ready pages, made again (commit them)
#   make check-package  the sdist and the wheel, built and tried as a user gets them (CI too)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: demo lint test test-oldest bench notebooks pages check-package venv clean

# The distribution was called minigrad until 0.1.0: an install under that name would linger.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip uninstall --quiet --yes minigrad 2>/dev/null || true
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.installed

demo: venv
	$(PY) -m seq2seq demo

# ruff with the rules in pyproject.toml; `ruff check --fix .` mends the import order and the like.
lint: venv
	$(PY) -m ruff check .

# The linter, then everything, the tests marked slow too (a plain `pytest` leaves those out, for
# quick runs while working: they run a tutorial a second time, as a notebook, when its page
# already runs).
test: lint
	$(PY) -m pytest -q -m "slow or not slow"

# The suite once more on the oldest NumPy the project supports (without the PyTorch oracle).
test-oldest:
	$(PYTHON) -m venv .venv-oldest
	.venv-oldest/bin/python -m pip install --quiet 'numpy==1.24.4' -e '.[test]'
	.venv-oldest/bin/python -m pytest -q -p no:cacheprovider

# The sdist and the wheel as a user gets them: the wheel installed in a clean virtual
# environment and tried there, a part of the sdist's own tests run in its unpacked folder.
check-package: venv
	$(PY) .ci/check_package.py

bench: venv
	$(PY) bench/engine.py
	$(PY) bench/lstm.py
	$(PY) bench/layer_norm.py
	$(PY) bench/gelu.py
	$(PY) bench/seq2seq.py
	$(PY) bench/transformer.py
	$(PY) bench/explorer.py

# Made from docs/*.md, the only source; a notebook you changed is not replaced (see the script).
notebooks: venv
	$(PY) docs/notebooks.py --out notebooks

# The explorer's pages in docs/pages/, each made by the command its index gives, from the code
# as it is (tiny runs trained first, in seconds, and not kept); tests/test_pages.py checks that
# the committed pages are what this makes. Run it after changing the explorer.
pages: venv
	$(PY) docs/pages.py

clean:
	rm -rf $(VENV) .venv-oldest build *.egg-info
