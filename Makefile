# The two Quickstart commands: `make all` runs the project workflow,
# `make test` installs what the tests need and runs them.
PYTHON ?= python

.PHONY: install all test bench

install:
	$(PYTHON) -m pip install -q -e .

all: install
	$(PYTHON) -m spacy project run all .

test:
	$(PYTHON) -m pip install -q -e ".[dev]"
	command -v chromium >/dev/null || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)
	$(PYTHON) -m pytest -q

bench: install
	$(PYTHON) -m pip install -q -e ".[dev]"
	$(PYTHON) benchmarks/bench.py
