"""The paper: every LaTeX table the workbook writes compiles alone with pdfLaTeX, hostile text
(LaTeX's specials, Unicode) in a table included; the manuscript in ``paper/`` builds as ``make
paper`` builds it, and its PDF's text holds the numbers of ``reports/paper/numbers.tex``; its
prose types no number, and every table, figure and macro it names exists.

The tests that run TeX need Debian's TeX Live (``make system-packages``, as root, installs
it; CI does): without it they are skipped, and say so."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from recallscore_nb.render.tables import latex_text
from tests.analysis.notebook_steps import session_05, steps, write_attempts

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "paper" / "paper.tex"
REPORTS = ROOT / "reports"
TABLES = sorted((REPORTS / "tables").glob("*.tex"))
TOOLS = ("pdflatex", "latexmk", "pdftotext")
MISSING = [tool for tool in TOOLS if shutil.which(tool) is None]
needs_tex = pytest.mark.skipif(
    bool(MISSING), reason=f"{', '.join(MISSING)} not installed: `make system-packages` (as root) "
    "installs Debian's TeX Live and poppler-utils")
STANDALONE = r"""\documentclass{article}
\usepackage{booktabs}
\tracinglostchars=2
\begin{document}
\input{%s}
\end{document}
"""
HOSTILE = ["sys_%&#~^\\", "{braces} $dollar$ <lt> |pipe|", "naïve café — ✓ 5 °C", "中文 answer"]


def pdflatex(document: str, folder: Path) -> str:
    """Compile ``document`` in ``folder`` (halting on the first error); return the PDF's text.
    A character the fonts lack is an error too (pdfLaTeX only logs it)."""
    source = folder / "doc.tex"
    source.write_text(document, encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                          "-file-line-error", source.name], cwd=folder, capture_output=True,
                         text=True, errors="replace", timeout=120)
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    errors = [line for line in log.splitlines() if line.startswith(("!", str(source)))
              or "Missing character" in line]
    assert run.returncode == 0 and not errors, "\n".join(errors) or run.stdout[-2000:]
    return pdf_text(folder / "doc.pdf")


def shown(text: str) -> str:
    """Text as pdftotext reads it from the default (OT1) fonts: an underscore is a rule (read as
    a space), tilde and circumflex are accents, whitespace is one space."""
    text = text.replace("_", " ").replace("\u02dc", "~").replace("\u02c6", "^")
    return re.sub(r"\s+", " ", text)


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


# --- every table the workbook writes ---------------------------------------------------------
def test_the_workbook_writes_latex_tables():
    assert len(TABLES) >= 30


@needs_tex
@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.stem)
def test_each_table_of_reports_compiles_alone(table, tmp_path):
    pdflatex(STANDALONE % table.as_posix(), tmp_path)


@needs_tex
def test_hostile_system_names_are_escaped_in_every_table_of_05(tmp_path):
    rows = [f'{i}-{j},"{name}",{answer}' for i, name in enumerate(HOSTILE)
            for j, answer in enumerate(("The ring was made of gold.", "I don't know"))]
    nb = session_05(tmp_path / "out", attempts_path=str(write_attempts(tmp_path, rows)))
    for what, frame in steps(nb).items():
        nb.save(what, frame)
    written = sorted((tmp_path / "out" / "tables").glob("*.tex"))
    assert len(written) == 7
    for table in written:
        folder = tmp_path / table.stem
        folder.mkdir()
        text = pdflatex(STANDALONE % table.as_posix(), folder)
        if table.stem.endswith("__systems"):
            assert all(shown(name) in shown(text) for name in HOSTILE[:2])
            assert "caf" in text and "U+4E2D" in text


@needs_tex
def test_a_table_with_hostile_headers_footers_and_cells_compiles(tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"name_%#": HOSTILE, "mean^~": [0.5, 1 / 3, None, 2.0]})
    (tmp_path / "table.tex").write_text(latex_text(frame, ["input: a%b\\c é"]), encoding="utf-8")
    text = pdflatex(STANDALONE % "table.tex", tmp_path)
    assert shown("name_%#") in shown(text) and "0.333" in text


# --- the manuscript -------------------------------------------------------------------------
def _numbers() -> dict[str, str]:
    text = (REPORTS / "paper" / "numbers.tex").read_text(encoding="utf-8")
    return dict(re.findall(r"\\newcommand\{\\rs(\w+)\}\{([^}]*)\}", text))


def _body() -> str:
    text = PAPER.read_text(encoding="utf-8")
    body = text.split(r"\begin{document}", 1)[1].split(r"\end{document}", 1)[0]
    return re.sub(r"(?<!\\)%.*", "", body)


def test_the_manuscript_names_only_macros_tables_and_figures_that_exist():
    numbers, body = _numbers(), _body()
    used = set(re.findall(r"\\rs([A-Z]\w*)", body))
    assert used and used <= set(numbers), sorted(used - set(numbers))
    for name in re.findall(r"\\rs(?:turned)?table\{([^}]+)\}", body):
        assert (REPORTS / "tables" / f"{name}.tex").is_file(), name
    for name in re.findall(r"\\rsfigure\{([^}]+)\}", body):
        assert (REPORTS / "figures" / f"{name}.pdf").is_file(), name


def test_the_manuscripts_prose_types_no_number():
    """Digits only inside commands' arguments that name files or labels: every number the
    text quotes is a macro of numbers.tex."""
    named = (r"\\(?:rstable|rsturnedtable|rsfigure|ref|label|input|includegraphics|cite)\*?"
             r"(?:\[[^]]*\])?\{[^}]*\}")
    prose = re.sub(named, "", _body())
    assert re.findall(r".{0,30}\d.{0,10}", prose) == []


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The folder ``make paper`` built the manuscript into (its PDF and log)."""
    out = tmp_path_factory.mktemp("paper")
    make = subprocess.run(["make", "-s", "paper", f"LATEXMK=latexmk -pdf -interaction=nonstopmode "
                           f"-halt-on-error -outdir={out}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-2000:]
    return out


@needs_tex
def test_make_paper_builds_a_pdf_whose_text_holds_the_papers_numbers(built):
    text = re.sub(r"\s+", " ", pdf_text(built / "paper.pdf"))
    numbers = _numbers()
    for name in sorted(set(re.findall(r"\\rs([A-Z]\w*)", _body()))):
        assert numbers[name] in text, name
    assert "??" not in text  # every reference resolved


@needs_tex
def test_no_table_of_the_paper_prints_below_80_percent_of_the_body_text(built):
    """Issue 30: the meta-evaluation's table was scaled to half the text's size. Each table
    records in the log its natural width, the text's width and its font size (``rstable``);
    a table wider than the text is scaled to it, so it prints at its font size times that
    ratio, which must be at least 0.8 of the body's."""
    body = float(re.search(r"\\documentclass\[(\d+)pt\]", PAPER.read_text()).group(1))
    log = (built / "paper.log").read_text(encoding="utf-8", errors="replace").replace("\n", "")
    found = re.findall(r"rstable (\S+): width ([\d.]+)pt, text ([\d.]+)pt, font ([\d.]+)pt", log)
    names = re.findall(r"\\rs(?:turned)?table\{([^}]+)\}", _body())
    assert sorted(n for n, *_ in found) == sorted(names)
    printed = {name: float(font) / body * min(1.0, float(text) / float(width))
               for name, width, text, font in found}
    assert {n: round(p, 3) for n, p in printed.items() if p < 0.8} == {}
