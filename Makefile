# The two Quickstart commands: `make all` runs the project workflow,
# `make test` installs what the tests need, lints and runs them; `make quick` is
# the quick loop, the tests not marked slow.
PYTHON ?= python

.PHONY: install all references lint test quick bench

install:
	$(PYTHON) -m pip install -q -e .

all: install
	$(PYTHON) -m spacy project run all .

# The reference libraries that register spaCy entry points go to build/references/,
# apart, so that a plain spaCy pipeline load never imports them.
# An environment where an older dev extra installed them in site-packages has
# them removed from there first (they would shadow the copies apart).
references:
	$(PYTHON) -m pip install -q -e ".[dev]"
	$(PYTHON) -m pip uninstall -q -y presidio-evaluator presidio-analyzer presidio-anonymizer spacy-llm 2>/dev/null || true
	$(PYTHON) -m pip install -q --no-deps --upgrade --target build/references -r tests/spacy-plugin-references.txt

# ruff (the rules and the format of pyproject.toml) over the code, tests,
# benchmarks, scripts and transcriptions; mypy over the package.
lint: references
	$(PYTHON) -m ruff check spacy_spanf1 tests benchmarks scripts transcriptions
	$(PYTHON) -m ruff format --check spacy_spanf1 tests benchmarks scripts transcriptions
	$(PYTHON) -m mypy spacy_spanf1

test: lint
	command -v chromium >/dev/null || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)
	$(PYTHON) -m pytest -q

quick:
	$(PYTHON) -m pytest -q -m "not slow"

bench: references
	$(PYTHON) benchmarks/bench.py
