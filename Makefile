# warroom: `make run` sets up and serves; `make test` sets up and runs the whole suite.
# `make run` installs only what serving needs, and mypy for its compiler mypyc (the engine's hot modules are compiled
# after installing; without a C compiler it runs as pure Python); the test tools (Playwright, ...) come with `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
COMPILE_STAMP := $(VENV)/.compiled
QUICK_DIR := $(CURDIR)/$(VENV)/warroom-compiled-quick
QUICK_STAMP := $(VENV)/.compiled-quick
ENGINE_SOURCES := $(shell find warroom/core warroom/rulesets -name '*.py') warroom/ai/firestorm_kernel_bot.py \
	warroom/ai/mcts.py \
	scripts/compile.py
HOST ?= 127.0.0.1
# pytest-xdist workers for `make test`: one more than the cores (up to 16), since the suite waits on subprocesses,
# browsers and PostgreSQL's disk often enough that a third worker on two cores ends the server tests 15 % sooner;
# 0 runs the suite in this one process. Under `make test` the compiled engine's tests (some 25 s) have as many
# workers of their own, beside the rest of the suite's.
TEST_WORKERS ?= $(shell $(PY) -c 'import os; print(min(16, (os.cpu_count() or 1) + 1))')
PORT ?= 8000

.PHONY: run play test lint typecheck browser unit unit-pure unit-compiled bench fuzz compile clean

# Bytecode caches are written even where the environment says not to (some CI images set PYTHONDONTWRITEBYTECODE):
# without them every Python process compiles warroom from source again, and pytest rewrites every test module's
# asserts again in each worker. The suite starts hundreds of processes (the command line, workers, servers).
unexport PYTHONDONTWRITEBYTECODE

# Everything installs without bytecode (--no-compile): pip would compile every file of every package one after the
# other, on one core, while the other waits (for what serving needs, mypy, NumPy, Arrow and Optuna some 25 s at the
# start of `make test`, ahead of everything; for the test tools, Ray, SciPy, Playwright ..., some 20 s more), most
# of it never run. What runs writes the bytecode of what it imports, once (`make` unexports PYTHONDONTWRITEBYTECODE,
# above): the first `warroom serve` takes a few seconds longer, the suite hardly longer (its workers share it).
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --no-compile -e '.[compile]'
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/pip install --quiet --no-compile -e '.[dev]'
	touch $(DEV_STAMP)

# The compiled engine (scripts/compile.py, into $(VENV)/warroom-compiled), rebuilt when an engine source changes. It
# is used only while it matches the sources, so a failed or skipped build just leaves the engine pure Python.
$(COMPILE_STAMP): $(RUN_STAMP) $(ENGINE_SOURCES)
	@$(BIN)/python scripts/compile.py || true
	@touch $(COMPILE_STAMP)

# The tests' build (`make test`): the same C, compiled by gcc at -O0, in about half the CPU time (scripts/compile.py's
# QUICK), into an overlay of its own, so that it never replaces the full build that `make run` uses. Unlike the full
# build, a failed one is tried again by the next `make test` (whose compiled engine's tests then fail, saying so).
$(QUICK_STAMP): $(RUN_STAMP) $(ENGINE_SOURCES)
	@$(BIN)/python scripts/compile.py --quick --out $(QUICK_DIR) && touch $(QUICK_STAMP) || true

compile: $(RUN_STAMP)
	$(BIN)/python scripts/compile.py --force
	@touch $(COMPILE_STAMP)

run: $(COMPILE_STAMP)
	$(BIN)/warroom serve --host $(HOST) --port $(PORT)

play: $(COMPILE_STAMP)
	$(BIN)/warroom play $(or $(SCENARIO),caen) --allies human --axis bot

lint: $(DEV_STAMP)
	$(BIN)/ruff check warroom tests bench scripts conftest.py

typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict

XDIST := $(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup
PYTEST := WARROOM_TEST_DATABASE_URL="$${WARROOM_TEST_DATABASE_URL:-$$(scripts/test-postgres.sh)}" $(XDIST)
COMPILED_TESTS := tests/e2e/test_compiled_engine.py

# Debian's Chromium for the browser tests, installed when missing and we may (its headless shell, else the whole
# browser): once, before the suite, beside pip's installs
browser:
	@scripts/test-browser.sh

unit: $(DEV_STAMP) $(COMPILE_STAMP) browser
	$(PYTEST)

# The suite without the compiled engine's tests: the rest runs pure Python (WARROOM_PURE=1, whatever the caller's
# environment says, and every process a test starts inherits it), so it needs no build, and a build put in place
# while it runs changes nothing.
unit-pure: $(DEV_STAMP) browser
	WARROOM_PURE=1 $(PYTEST) --ignore=$(COMPILED_TESTS)

# The compiled engine's tests run on the quick build (WARROOM_COMPILED_DIR).
# WARROOM_REQUIRE_BUILD=1: where a C compiler and mypyc are found, a missing build fails the tests (not skips them).
# They need no database. Under `make test` (BESIDE=1) they run beside the rest of the suite, so their output goes to
# $(COMPILED_LOG) and is shown, between two marked lines, when they end (or are interrupted): two runs' progress
# would interleave.
COMPILED_LOG := $(VENV)/unit-compiled.log
PYTEST_COMPILED := WARROOM_REQUIRE_BUILD=1 WARROOM_COMPILED_DIR=$(QUICK_DIR) $(XDIST) $(COMPILED_TESTS)
unit-compiled: $(DEV_STAMP) $(QUICK_STAMP)
ifdef BESIDE
	@rm -f $(COMPILED_LOG); echo "the compiled engine's tests started (their output follows when they end)"
	@show() { echo "==== the compiled engine's tests: $$1 ===="; cat $(COMPILED_LOG); \
		echo "==== end of the compiled engine's tests ===="; }; \
	trap 'show interrupted; exit 130' INT TERM; \
	$(PYTEST_COMPILED) > $(COMPILED_LOG) 2>&1; status=$$?; show "exit status $$status"; exit $$status
else
	$(PYTEST_COMPILED)
endif

# The lint, the type check, the engine's compile and the suite side by side: the pure-Python part of the suite at
# once, the compiled engine's tests as soon as the build is in. The suite often waits on browsers, servers and
# subprocesses: run one after the other, the compile and the suite left a core idle for minutes. The compile needs
# only what `make run` installs, so it starts as soon as that is in, while pip (one process, one core) installs the
# test tools.
test:
	@$(MAKE) --no-print-directory -j5 BESIDE=1 lint typecheck $(QUICK_STAMP) unit-pure unit-compiled

bench: $(DEV_STAMP) $(COMPILE_STAMP)
	$(BIN)/python bench/campaigns.py
	$(BIN)/python bench/strategic.py
	$(BIN)/python bench/kampen.py
	$(BIN)/python bench/openspiel.py
	$(BIN)/python bench/server_load.py
	$(BIN)/python bench/server_load.py --think 0 --runs 1 --alone 0

GAMES ?= 1000
fuzz: $(DEV_STAMP) $(COMPILE_STAMP)
	$(BIN)/python scripts/fuzz.py --games $(GAMES)
	$(BIN)/python scripts/kernel_diff.py --games $(GAMES)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
