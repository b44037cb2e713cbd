# warroom: `make run` sets up and plays; `make test` sets up and runs the whole suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/warroom serve

play: $(STAMP)
	$(BIN)/warroom play $(or $(SCENARIO),caen) --allies human --axis bot

lint: $(STAMP)
	$(BIN)/ruff check warroom tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict

unit: $(STAMP)
	WARROOM_TEST_DATABASE_URL="$${WARROOM_TEST_DATABASE_URL:-$$(scripts/test-postgres.sh)}" $(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/campaigns.py
	$(BIN)/python bench/strategic.py
	$(BIN)/python bench/kampen.py
	$(BIN)/python bench/server_load.py
	$(BIN)/python bench/server_load.py --think 0 --runs 1 --alone 0

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
