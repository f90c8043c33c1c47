# One set of commands for people and CI. Needs only Python 3.11+ and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-quick system-deps lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/baccara serve

test: system-deps lint typecheck pytest

# PostgreSQL and Chromium for the database and browser tests (apt-get where missing).
system-deps:
	scripts/system-deps

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -n auto -p no:cacheprovider

# While working: everything but the exhaustive proofs marked slow (CI runs those).
test-quick: system-deps lint typecheck $(STAMP)
	$(BIN)/python -m pytest -n auto -p no:cacheprovider -m "not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/load.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
