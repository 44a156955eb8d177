# Two entry points: `make run` (the web table) and `make test` (the whole suite, as CI runs it).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean system-deps dist catalogues messages

# One stamp per build kind, so that switching RUMMOLI_PURE on or off rebuilds.
COMPILED := $(VENV)/.compiled$(if $(RUMMOLI_PURE),-pure)
SOURCES  := $(shell find src -name '*.py' -o -name '*.c')

# The package, installed plain (editable); the next step compiles its hot modules.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77'
	RUMMOLI_PURE=1 $(BIN)/python -m pip install --quiet -e '.[dev,ray,postgres,rl]'
	touch $(STAMP)

# The simulation's hot modules compiled by mypyc, in place (src/rummoli/compiled.py says
# which and why), again whenever a source changed: an old compiled module would shadow
# the edited source. About two minutes. RUMMOLI_PURE=1 skips it (plain Python, slower).
$(COMPILED): $(STAMP) setup.py $(SOURCES)
ifeq ($(RUMMOLI_PURE),)
	@command -v cc >/dev/null 2>&1 || { \
		echo "installing a C compiler for the compiled modules (RUMMOLI_PURE=1 skips them)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev; }
	@$(BIN)/python -c "import os, sysconfig; \
		assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))" \
		2>/dev/null || { echo "installing Python's C headers"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev; }
	@echo "compiling the simulation's hot modules with mypyc (about two minutes)"
	$(BIN)/python setup.py --quiet build_ext --inplace --parallel 2
else
	find src -name '*.so' -delete
	rm -f src/rummoli/.compiled.json
endif
	rm -f $(VENV)/.compiled $(VENV)/.compiled-pure
	touch $(COMPILED)

# The sdist and the wheel, as pip would build them (isolated: the build requirements
# come from the package index; compiled when a C compiler is here, plain Python
# otherwise: setup.py says which in one line), into build/dist/, and their metadata
# checked as the package index checks it.
dist: $(STAMP)
	rm -rf build/dist
	$(BIN)/python -m build --outdir build/dist .
	$(BIN)/python -m twine check --strict build/dist/*

# The message catalogues (docs/i18n.md): each language's .po compiled to the .mo the
# program reads. The .mo files are committed too (a checkout runs without this step; a
# test checks they match their .po); this rebuilds one whenever its .po changed. Two
# domains: rummoli (the Python side: babel.cfg) and web (the browser's pages, served as
# JSON by the server: babel-web.cfg).
LOCALE     := src/rummoli/locale
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard $(LOCALE)/*/LC_MESSAGES/rummoli.po)) \
	$(patsubst %.po,%.mo,$(wildcard $(LOCALE)/*/LC_MESSAGES/web.po))
HEADER     := -c TRANSLATORS: \
	--no-wrap --no-location --project=rummoli --version=0.1.0 \
	--copyright-holder="the rummoli authors" --msgid-bugs-address=""
EXTRACT    := -F babel.cfg -k nformat:1,2 -k NN_:1,2 -k NP_:1c,2 -k NPN_:1c,2,3 $(HEADER)
# The pages' modules call _(), ngettext(singular, plural, n) and pgettext(context, text).
EXTRACT_WEB := -F babel-web.cfg -k ngettext:1,2 -k pgettext:1c,2 $(HEADER)
UPDATE     := --no-wrap --ignore-obsolete --ignore-pot-creation-date

catalogues: $(CATALOGUES)

$(LOCALE)/%/LC_MESSAGES/rummoli.mo: $(LOCALE)/%/LC_MESSAGES/rummoli.po | $(STAMP)
	$(BIN)/pybabel compile --statistics -D rummoli -l $* -i $< -o $@

$(LOCALE)/%/LC_MESSAGES/web.mo: $(LOCALE)/%/LC_MESSAGES/web.po | $(STAMP)
	$(BIN)/pybabel compile --statistics -D web -l $* -i $< -o $@

# After changing messages in the code: extract them into the templates and merge them
# into every language's catalogues (new messages arrive untranslated, to be filled in).
messages: $(STAMP)
	$(BIN)/pybabel extract $(EXTRACT) -o $(LOCALE)/rummoli.pot .
	$(BIN)/pybabel update $(UPDATE) -D rummoli -i $(LOCALE)/rummoli.pot -d $(LOCALE)
	$(BIN)/pybabel extract $(EXTRACT_WEB) -o $(LOCALE)/web.pot .
	$(BIN)/pybabel update $(UPDATE) -D web -i $(LOCALE)/web.pot -d $(LOCALE)

# Every build brings the catalogues up to date (a separate line: the compile rule above
# is not touched).
$(COMPILED): $(CATALOGUES)

# The web table on the embedded database (./data/rummoli.db); it prints the address to open.
run: $(COMPILED)
	$(BIN)/rummoli serve

test: $(COMPILED) system-deps lint typecheck pytest

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads one),
# and Debian's PostgreSQL for the storage tests (they start their own server on a free
# loopback port, as the package's unprivileged postgres user: tests/web/pgserver.py).
system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || { \
		echo "installing Debian's postgresql for the storage tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench setup.py
	$(BIN)/ruff format --check src tests bench setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(COMPILED)
	$(BIN)/pytest -q

bench: $(COMPILED)
	$(BIN)/python bench/bench_poker.py
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_bots.py times

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build src/rummoli/.compiled.json
	find src -name '*.so' -delete
