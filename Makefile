PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint bench clean i18n

$(BIN)/activate:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

play: $(VENV)/.installed
	$(BIN)/tavli play

# three workers on CI's two cores: the browser tests wait on pages and servers, so two
# workers kept the cores only about 56% busy (warm parallel phase: 544 s at -n 2 before the
# pairwise browser matrices, 472 s at -n 3 after them; not yet measured from a fresh clone)
# the serial tests alone, after the others: only the files that mark some (collecting the
# whole suite again would cost some ten seconds; tests/conftest.py checks the marks)
test: $(VENV)/.installed-test
	$(BIN)/python scripts/provision_browser.py
	$(BIN)/python scripts/provision_gnubg.py
	$(BIN)/python scripts/provision_postgresql.py
	$(BIN)/ruff check tavli tests scripts
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n 3 --dist loadfile -m "not serial"
	$(BIN)/python -m pytest -q -m serial $$(grep -l "pytest.mark.serial" tests/test_*.py)

# the message catalogues: tavli/locale/<lang>.po -> .mo (committed; the stdlib only)
i18n:
	$(PY) -m tavli.i18n_compile

bench: $(VENV)/.installed
	$(BIN)/tavli bench movegen

clean:
	rm -rf $(VENV) build *.egg-info
