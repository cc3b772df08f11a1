"""JupyterLab is part of the set-up: it starts, lists the notebooks, and offers the python3 kernel;
a notebook's kernel is told it runs under a Jupyter server (``JPY_SESSION_NAME``), so relative
paths in its parameters cell mean the repository root, not the notebook's folder."""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from pathlib import Path

import nbformat
import pytest

import recallscore_nb as rs
from tests.lab_server import jupyter_lab

ROOT = Path(__file__).resolve().parents[2]


def _get(url: str, token: str, method: str = "GET", body: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Authorization": f"token {token}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None


def _in_kernel(connection_file: Path, code: str) -> str:
    """What ``code`` prints in a running kernel."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient(connection_file=str(connection_file))
    client.load_connection_file()
    client.start_channels()
    printed = []
    try:
        client.wait_for_ready(timeout=60)
        reply = client.execute_interactive(
            code, timeout=60, output_hook=lambda msg: printed.append(msg["content"].get("text", "")))
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        client.stop_channels()
    return "".join(printed)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab started as `.venv/bin/jupyter lab` starts it, without activating the venv:
    its folder of scripts is not on PATH. Yields (base URL, token, runtime folder)."""
    tmp_path = tmp_path_factory.mktemp("lab")
    scripts = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != scripts)
    env = {**os.environ, "PATH": path, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    with jupyter_lab(tmp_path / "lab.log", cwd=ROOT, env=env,
                     options=(f"--ServerApp.root_dir={ROOT}",)) as (base, token):
        yield base, token, tmp_path / "runtime"


def _open(lab, name: str) -> tuple[dict, Path]:
    """A session on notebooks/<name>, as JupyterLab opens one: its kernel runs in notebooks/."""
    base, token, runtime = lab
    session = _get(f"{base}/api/sessions", token, "POST",
                   {"path": f"notebooks/{name}", "name": name, "type": "notebook",
                    "kernel": {"name": "python3"}})
    return session, runtime / f"kernel-{session['kernel']['id']}.json"


def _close(lab, session: dict) -> None:
    base, token, _ = lab
    _get(f"{base}/api/sessions/{session['id']}", token, "DELETE")


def test_jupyter_lab_lists_the_notebooks_and_the_python3_kernel(lab):
    base, token, _ = lab
    listing = _get(f"{base}/api/contents/notebooks", token)
    names = {item["name"] for item in listing["content"]}
    expected = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert expected and expected <= names
    kernelspecs = _get(f"{base}/api/kernelspecs", token)
    assert "python3" in kernelspecs["kernelspecs"]

    name = "05_reanalysis.ipynb"
    session, connection = _open(lab, name)
    printed = _in_kernel(connection, "import os\nfrom recallscore_nb.workbook.paths import user_folder\n"
                                     "print(os.environ['JPY_SESSION_NAME'], os.getcwd(), "
                                     "user_folder(), sep='\\n')")
    variable, cwd, folder = printed.splitlines()
    assert Path(variable) == ROOT / "notebooks" / name
    assert Path(cwd) == ROOT / "notebooks" and Path(folder) == ROOT
    _close(lab, session)


def test_shell_commands_read_paths_as_python_does_and_find_recallscore(lab):
    """Failure 3 of issue 21: with Lab started as `.venv/bin/jupyter lab`, `!recallscore` was
    `command not found`, and `!ls x` looked in the kernel's folder (notebooks/) while Python
    and `recallscore --output-dir x` meant the repository root."""
    name = "05_reanalysis.ipynb"
    session, connection = _open(lab, name)
    cells = [c for c in nbformat.read(ROOT / "notebooks" / name, as_version=4).cells
             if c.cell_type == "code"]
    code = "\n".join([cells[0].source, cells[1].source, "import os",
                      "print('python', os.path.abspath('reports'))",
                      "!echo shell $(cd reports && pwd -P)", "!recallscore --version"])
    printed = _in_kernel(connection, code)
    _close(lab, session)
    lines = dict(line.split(" ", 1) for line in printed.splitlines() if " " in line)
    assert Path(lines["python"]) == ROOT / "reports"
    assert Path(lines["shell"]) == (ROOT / "reports").resolve()
    assert lines["recallscore"].startswith(rs.__version__), printed
