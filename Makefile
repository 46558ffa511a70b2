# Two commands do all set-up on a fresh machine (Python 3.11+ and make are all they assume):
#   make run    install, migrate, load demo data, print the logins, serve http://127.0.0.1:8000 with a worker
#   make test   install the same way and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements/dev.lock | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install lint format lock migrate demo browser-deps bench clean

$(STAMP): requirements/dev.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/dev.lock
	@rm -f $(VENV)/.installed-*; touch $@

install: $(STAMP)

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py load_question_banks
	-$(BIN)/python manage.py wordup_audio
	CLASSPLAY_HOST=$(HOST) CLASSPLAY_PORT=$(PORT) $(BIN)/python manage.py load_demo
	PATH="$(CURDIR)/$(BIN):$$PATH" CLASSPLAY_HOST=$(HOST) CLASSPLAY_PORT=$(PORT) $(BIN)/honcho -f Procfile.dev start

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Re-resolve the lock files after changing pyproject.toml (needs the package registry).
lock:
	$(PYTHON) -m venv .venv-lock && .venv-lock/bin/pip install --quiet pip-tools
	.venv-lock/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe -o requirements/base.lock pyproject.toml
	.venv-lock/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe --extra dev -o requirements/dev.lock pyproject.toml
	rm -rf .venv-lock

bench: install
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) var staticfiles
