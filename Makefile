# The two commands of the README: `make reports` and `make test`. Each creates .venv/ when it
# is missing (venv, then an editable install with the test and dask extras, pinned by
# constraints.txt) and reinstalls only when pyproject.toml or constraints.txt changed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: reports test check clean-venv

reports: $(INSTALLED)
	$(BIN)/recallscore run

test: $(INSTALLED)
	$(BIN)/python -m pytest

$(INSTALLED): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test,dask]'
	touch $(INSTALLED)

clean-venv:
	rm -rf $(VENV)
