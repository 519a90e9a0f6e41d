# Set-up is part of every target: a fresh clone needs only Python >= 3.10 and make.
#   make demo    the main job
#   make test    the whole test suite
#   make bench   the benchmarks (one BLAS thread)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: demo test bench venv clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.installed

demo: venv
	$(PY) -m seq2seq demo

test: venv
	$(PY) -m pytest -q

bench: venv
	$(PY) bench/engine.py
	$(PY) bench/lstm.py
	$(PY) bench/seq2seq.py

clean:
	rm -rf $(VENV) build *.egg-info
