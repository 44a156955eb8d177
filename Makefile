# Two entry points: `make run` (play) and `make test` (the whole suite, as CI runs it).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rummoli play

test: $(STAMP) lint typecheck pytest

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
