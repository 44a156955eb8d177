# Two entry points: `make run` (the web table) and `make test` (the whole suite, as CI runs it).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

# The web table on the embedded database (./data/rummoli.db); it prints the address to open.
run: $(STAMP)
	$(BIN)/rummoli serve

test: $(STAMP) system-deps lint typecheck pytest

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads one).
system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python bench/bench_poker.py
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
