# Thin wrapper over scripts/: every target sets up what it needs first (see scripts/setup.sh).
PY := .venv/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: help setup serve build test lint format bench notebook clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

setup:  ## create .venv and install glassgrad with every extra, Graphviz, Chromium and the playground's npm packages
	@bash scripts/setup.sh

# SITE_URL: serve at the root, not under the path of mkdocs.yml's published address (/glassgrad/).
# --dirty: a save rebuilds the pages it changes (docs/hooks/fresh_modules.py adds the pages whose includes
# or packages changed, and rebuilds the playground's bundle); --watch src: every package the pages import; not --strict, which a dirty build's warning would abort: a failing block shows on its page.
# NOTEBOOK_EXECUTE=false: the notebook page shows the chapters' code; `make build` runs it.
# The site needs no browser: set-up installs Chromium for the browser tests only (`make test`).
serve build: export GLASSGRAD_NO_BROWSER = 1

serve: setup  ## build the site and serve it on http://127.0.0.1:8000, rebuilding the pages you change
	SITE_URL=http://$(HOST)/ NOTEBOOK_EXECUTE=false $(PY) -m properdocs serve -f mkdocs.yml --dirty --dev-addr $(HOST) --watch src

build: setup  ## build the site into site/ with ProperDocs (strict: any warning or failing block fails), then check it
	$(PY) -m properdocs build -f mkdocs.yml --strict
	$(PY) scripts/check_site.py --sources docs site

# Lint first (seconds), then pytest even when lint failed; fails if either did (pytest's exit code first).
test: setup  ## run every check: ruff, mypy, workflow schemas, then every test (engine, site, notebook, browser)
	@bash scripts/lint.sh; lint=$$?; $(PY) -m pytest; tests=$$?; [ $$tests -ne 0 ] && exit $$tests; exit $$lint

lint: setup  ## ruff check, ruff format --check, mypy, and the GitHub files against their schemas
	@bash scripts/lint.sh

format: setup  ## apply ruff's safe fixes (import order, ...) and format every Python file
	.venv/bin/ruff check --fix .
	.venv/bin/ruff format .

bench: setup  ## compare glassgrad with micrograd and PyTorch (each in its own process); time builds and the playground's first Run
	$(PY) scripts/bench.py --record docs/snippets/made_fast/bench.md
	$(PY) scripts/bench_drawing.py
	$(PY) scripts/build_times.py
	$(PY) scripts/bench_playground.py
	$(PY) scripts/bench_lab.py
	$(PY) scripts/bench_explore.py

clean:  ## remove build outputs (keeps .venv)
	rm -rf site build dist .pytest_cache .hypothesis
