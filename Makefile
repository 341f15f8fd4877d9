# Refit: two commands. `make run` (embedded: SQLite + in-memory channel layer) and `make test` (PostgreSQL + Redis).
PYTHON ?= python3.12
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run` serves players: Django's debug pages stay off unless a developer asks (`make run DEBUG=1`). E-mailed links
# point at SITE_URL: the address the server is reached at (set it when HOST is 0.0.0.0 or behind a proxy).
DEBUG ?= 0
SITE_URL ?= http://$(if $(filter 0.0.0.0 ::,$(HOST)),127.0.0.1,$(HOST)):$(PORT)
RUN_ENV := env -u DATABASE_URL -u REDIS_URL -u STATIC_MANIFEST DEBUG=$(DEBUG) SITE_URL=$(SITE_URL)

# `make test` talks to real services; these defaults suit a local PostgreSQL with trust auth and a local Redis.
TEST_DATABASE_URL ?= $(if $(DATABASE_URL),$(DATABASE_URL),postgres://postgres@127.0.0.1:5432/refit)
TEST_REDIS_URL ?= $(if $(REDIS_URL),$(REDIS_URL),redis://127.0.0.1:6379/0)

.PHONY: run test install mypy bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Refit needs Python 3.12 as '$(PYTHON)' (see .python-version)."; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# `make run` is a local run over plain HTTP that prints e-mails: with DEBUG off it must say so (campaigns_app/settings.py).
run: export REFIT_PLAIN_HTTP ?= 1
run: export REFIT_ALLOW_CONSOLE_EMAIL ?= 1
run: $(STAMP)
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py load_systems
	@echo "Refit: $(SITE_URL)/ (DEBUG=$(DEBUG))"
	$(RUN_ENV) $(BIN)/uvicorn campaigns_app.asgi:application --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy --strict rules_engine campaigns_app
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m pytest $(PYTEST_ARGS)

mypy: $(STAMP)
	$(BIN)/mypy --strict rules_engine campaigns_app

bench: $(STAMP)
	$(BIN)/python bench/engine_campaign.py $(BENCH_ARGS)
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python bench/reveal_latency.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache staticfiles
