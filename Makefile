# One set of commands for people and CI. Needs only Python 3.11+ and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Byte-code caches on, even where the environment turns them off: without them every
# test process and every command a test starts compiles the whole package again (about
# ten seconds of each test worker's collection).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-quick system-deps lint typecheck pytest docs lock bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The exact versions of requirements.lock (`make lock` writes it), then baccara itself.
$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/baccara serve

test: system-deps lint typecheck pytest docs

# PostgreSQL and Chromium for the database and browser tests (apt-get where missing).
system-deps:
	scripts/system-deps

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -n auto -p no:cacheprovider --durations=20

# While working: everything but the exhaustive proofs (slow) and the tests that need
# PostgreSQL, Chromium or a real server process (tests/conftest.py marks them); so it
# needs neither PostgreSQL nor Chromium. make test runs them all.
QUICK := not slow and not postgres and not browser and not process
test-quick: lint typecheck $(STAMP)
	$(BIN)/python -m pytest -n auto -p no:cacheprovider -m "$(QUICK)" --durations=10

# The documentation site, into site/; a broken link or a page left out of the nav fails.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Pin every package of the server, test, docs and bench extras again, after pyproject.toml changes.
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
		--extra server --extra test --extra docs --extra bench -o requirements.lock pyproject.toml

# The fast paths against plain code, then the casino under load against the floor of its
# stack (benchmarks/floor.py, measured again in each run): SQLite, PostgreSQL with one
# and two processes (behind nginx), and one popular table; then the bus between the
# processes against Redis and NATS (docs/performance.md).
bench: $(STAMP)
	scripts/system-deps --bench
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/load.py
	$(BIN)/python benchmarks/load.py --database postgresql
	$(BIN)/python benchmarks/load.py --database postgresql --processes 2
	$(BIN)/python benchmarks/load.py --scenario popular --players 2000 --bettors 500 \
		--betting 10 --bunch 3
	$(BIN)/python benchmarks/bus.py

clean:
	rm -rf $(VENV) build site src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
