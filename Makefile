# QGS developer commands. `make demo` and `make test` work on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=

.PHONY: install demo test test-unit lint typecheck all bench up clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $@

## Run the main job on the embedded default: audit the example transcripts in tasks/.
demo: install
	$(VENV)/bin/qgs audit tasks/

## Run every test (unit and integration). pytest's exit 5 (no test ran) is a failure.
test: install
	@$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests"; exit 1; fi; exit $$rc

test-unit: install
	$(PY) -m pytest tests/unit $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check qgs_worker tests bench

typecheck: install
	$(VENV)/bin/mypy

all: lint typecheck test

## Throughput and memory, as ratios against a baseline run side by side.
bench: install
	$(PY) bench/pipeline_bench.py
	$(PY) bench/llm_calls_bench.py
	$(PY) bench/audit_bench.py
	$(PY) bench/toolgate_bench.py

up:
	docker compose up --build

clean:
	rm -rf .qgs .pytest_cache .mypy_cache .ruff_cache
