# Two commands do all set-up on a fresh machine (Python 3.11+, make and npm are all they assume):
#   make run    install, migrate, load demo data, print the logins, serve http://127.0.0.1:8000 with a worker
#   make test   install the same way and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements/dev.lock | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install messages lint format lock migrate demo browser-deps bench clean
NODE_STAMP := node_modules/.installed-$(shell cat package-lock.json | cksum | cut -d' ' -f1)

$(STAMP): requirements/dev.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/dev.lock
	@rm -f $(VENV)/.installed-*; touch $@

install: $(STAMP) $(NODE_STAMP) messages

# The translation catalogs (locale/*/LC_MESSAGES/*.po) compiled to .mo in pure Python: no GNU gettext
# needed (translators use it for makemessages: docs/i18n.md). Only out-of-date catalogs are compiled.
messages: $(STAMP)
	$(BIN)/python -m config.msgfmt

# The front end's npm packages, from the lock file: idiomorph, which every game screen loads (the static
# files serve it from node_modules/, so collectstatic needs it), and the tools of `make lint` and the
# JavaScript unit tests, with the browser tests' axe-core (loaded into test pages only). npm comes with
# Node.js from Debian's packages.
$(NODE_STAMP): package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm not found: Classplay's game screens need its packages (apt-get install npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@rm -f node_modules/.installed-*; touch $@

browser-deps: $(NODE_STAMP)

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
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run --verbosity 0
	$(BIN)/python -m config.msgfmt --check
	node_modules/.bin/eslint --max-warnings 0 static/js tests eslint.config.js
	node_modules/.bin/tsc -p tsconfig.json

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Re-resolve the lock files after changing pyproject.toml (needs the package registry).
lock:
	$(PYTHON) -m venv .venv-lock && .venv-lock/bin/pip install --quiet pip-tools
	.venv-lock/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe -o requirements/base.lock pyproject.toml
	.venv-lock/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe --extra dev -o requirements/dev.lock pyproject.toml
	rm -rf .venv-lock

# The benchmarks at a size that runs in a few minutes on a laptop (bench/README.md has the full sizes).
bench: install
	$(BIN)/python bench/reports_levels.py --students 20000
	$(BIN)/python bench/live_load.py --students 500 --mode embedded

clean:
	rm -rf $(VENV) var staticfiles node_modules
