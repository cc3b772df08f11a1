# The two commands of the README: `make reports` and `make test`. Each creates .venv/ when it
# is missing (venv, then an editable install with the test and dask extras, pinned by
# constraints.txt) and reinstalls only when pyproject.toml or constraints.txt changed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
# JupyterLab run from the venv saves the notebooks of notebooks/ without outputs
# (recallscore_nb/workbook/lab.py), so that a save in JupyterLab leaves git status clean.
JUPYTER_CONFIG := $(VENV)/etc/jupyter

# `make paper` builds paper/paper.pdf from what reports/ holds, with latexmk and pdfLaTeX
# (Debian's TeX Live: PAPER_PACKAGES). `make system-packages` installs, as root with apt-get,
# the Debian packages that it and the tests of the manuscript and of JupyterLab in a browser
# need (Chromium: BROWSER_PACKAGES); without them those tests are skipped and say why.
PAPER_PACKAGES := latexmk texlive-latex-base texlive-latex-recommended texlive-fonts-recommended poppler-utils
BROWSER_PACKAGES := chromium
LATEXMK := latexmk -pdf -interaction=nonstopmode -halt-on-error -file-line-error

.PHONY: reports test paper system-packages check clean-venv

reports: $(INSTALLED)
	$(BIN)/recallscore run

test: $(INSTALLED)
	$(BIN)/python -m pytest

paper:
	@command -v latexmk >/dev/null && command -v pdflatex >/dev/null || { echo "make paper needs \
	latexmk and pdfLaTeX: apt-get install $(PAPER_PACKAGES) (or make system-packages, as root)" >&2; \
	exit 2; }
	cd paper && $(LATEXMK) paper.tex

system-packages:
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		$(PAPER_PACKAGES) $(BROWSER_PACKAGES)

$(INSTALLED): pyproject.toml constraints.txt recallscore_nb/data/jupyter/jupyter_server_config.json
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test,dask]'
	mkdir -p $(JUPYTER_CONFIG)
	cp recallscore_nb/data/jupyter/jupyter_server_config.json $(JUPYTER_CONFIG)/
	touch $(INSTALLED)

clean-venv:
	rm -rf $(VENV)
