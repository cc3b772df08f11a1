"""JupyterLab in a real browser, as a user works in it: Playwright for Python drives Debian's
Chromium (``/usr/bin/chromium``; no browser is ever downloaded) against a JupyterLab started
on a free port, on a clone of the repository.

- the copy ``recallscore explore 05`` makes: open it, edit its parameters cell, run all twice,
  save; its outputs go to ``scratch/05_reanalysis/`` with the edited parameter;
- a committed notebook: open it, run all, save; then what ``make reports`` runs
  (``recallscore run``) leaves ``git status`` clean.

A failure keeps a screenshot of the page (its path is in the failure message). Without
Chromium (``make system-packages``, as root, installs it) the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.lab_server import jupyter_lab

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BIN = Path(sys.executable).parent
TIMEOUT_MS = 180_000
LAB_OPTIONS = ("--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file() or shutil.which("git") is None,
    reason=f"{CHROMIUM} or git not installed: `make system-packages` (as root) installs Chromium")


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """A clone of the repository as committed (the workbook a user checks out)."""
    book = tmp_path_factory.mktemp("browser") / "book"
    subprocess.run(["git", "clone", "--quiet", "--shared", str(ROOT), str(book)], check=True)
    return book


def _env(book: Path, home: Path) -> dict:
    """The environment of a user working in the clone with this venv (not activated)."""
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != str(BIN))
    return {**os.environ, "PATH": path, "RECALLSCORE_ROOT": str(book),
            "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTER_DATA_DIR": str(home / "data"),
            "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces")}


@contextmanager
def chromium(home: Path):
    """Debian's Chromium under Playwright, headless, with a fresh profile; yields a page."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(home / "profile"), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 900})
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


@contextmanager
def screenshot_on_failure(page, where: Path):
    try:
        yield
    except BaseException as exc:
        shot = where / "failure.png"
        try:
            page.screenshot(path=str(shot), full_page=True)
        except Exception:  # the browser itself failed: the error says what
            raise exc
        raise AssertionError(f"{exc}\n(screenshot of the page: {shot})") from exc


def open_notebook(page, base: str, token: str, path: str) -> None:
    """Open ``path`` alone (a fresh workspace: no other tab) and wait for its kernel."""
    page.goto(f"{base}/lab/tree/{path}?token={token}&reset", timeout=TIMEOUT_MS)
    page.locator(f"{ACTIVE} .jp-CodeCell").first.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => /Idle/.test(document.querySelector('#jp-main-statusbar')?.textContent ?? '')",
        timeout=TIMEOUT_MS)
    wait_idle(page)


ACTIVE = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def wait_idle(page) -> None:
    """Wait until the notebook's kernel is idle and no cell is queued or running."""
    page.locator(f'{ACTIVE} .jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(
        timeout=TIMEOUT_MS)


def run_all(page) -> None:
    """Run all cells (the Run menu) and wait until the last cell has run and shows what the
    notebook found."""
    last = page.locator(f"{ACTIVE} .jp-CodeCell").last
    before = last.locator(".jp-InputPrompt").inner_text()
    page.locator("#jp-MainMenu").get_by_text("Run", exact=True).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_function(
        r"""([selector, before]) => {
            const panel = document.querySelector(selector);
            const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            const last = prompts[prompts.length - 1].textContent;
            return last !== before && /\[\d+\]/.test(last)
                && prompts.every(p => !p.textContent.includes('*'));
        }""", arg=[ACTIVE, before], timeout=TIMEOUT_MS)
    wait_idle(page)
    assert "What this notebook found" in last.inner_text(), last.inner_text()[-2000:]


def save(page) -> None:
    page.locator(f"{ACTIVE} .jp-Notebook").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    page.wait_for_function(
        "() => !document.querySelector('.lm-TabBar-tab.lm-mod-current.jp-mod-dirty')",
        timeout=TIMEOUT_MS)


def edit_parameters(page, source: str) -> None:
    """Replace the parameters cell's text, as typing would (inserted whole: no auto-indent)."""
    editor = page.locator(f"{ACTIVE} .jp-CodeCell").first.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(source)
    page.keyboard.press("Escape")


def test_explore_run_twice_then_a_committed_notebook_leaves_git_status_clean(book, tmp_path):
    env = _env(book, tmp_path)
    explored = subprocess.run([str(BIN / "recallscore"), "explore", "05"], cwd=book, env=env,
                              capture_output=True, text=True, timeout=120)
    assert explored.returncode == 0, explored.stderr
    copy = book / "scratch" / "05_reanalysis.ipynb"
    cells = json.loads(copy.read_text())["cells"]
    parameters = "".join(next(c["source"] for c in cells if c["cell_type"] == "code"))
    edited = parameters.replace("resamples: int = 2000", "resamples: int = 300")
    assert edited != parameters

    started = time.monotonic()
    with jupyter_lab(tmp_path / "lab.log", cwd=book, env=env, options=LAB_OPTIONS) as (base, token), \
            chromium(tmp_path) as page, screenshot_on_failure(page, tmp_path):
        page.set_default_timeout(TIMEOUT_MS)
        open_notebook(page, base, token, "scratch/05_reanalysis.ipynb")
        edit_parameters(page, edited)
        run_all(page)
        run_all(page)
        save(page)
        saved = json.loads(copy.read_text())
        assert "resamples: int = 300" in "".join(saved["cells"][1]["source"])
        manifest = json.loads((book / "scratch" / "05_reanalysis" / "manifest.json").read_text())
        assert manifest["parameters"]["05_reanalysis"]["resamples"] == 300
        assert (book / "scratch" / "05_reanalysis" / "tables" / "05_reanalysis__intervals.csv").is_file()

        open_notebook(page, base, token, "notebooks/01_reproduce_benchmark.ipynb")
        run_all(page)
        save(page)
    browser = time.monotonic() - started

    ran = subprocess.run([str(BIN / "recallscore"), "run"], cwd=book, env=env,
                         capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stderr
    assert _git(book, "status", "--porcelain") == ""
    print(f"JupyterLab in Chromium: {browser:.0f} s; recallscore run afterwards: ran")
