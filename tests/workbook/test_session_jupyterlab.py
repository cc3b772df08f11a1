"""JupyterLab is part of the set-up: it starts, lists the notebooks, and offers the python3 kernel;
a notebook's kernel is told it runs under a Jupyter server (``JPY_SESSION_NAME``), so relative
paths in its parameters cell mean the repository root, not the notebook's folder."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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


def test_jupyter_lab_lists_the_notebooks_and_the_python3_kernel(tmp_path):
    port, token = _free_port(), secrets.token_hex(16)
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}",
         "--ServerApp.open_browser=False", "--allow-root"],
        stdout=subprocess.DEVNULL, stderr=(tmp_path / "lab.log").open("wb"),
        env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                listing = _get(f"{base}/api/contents/notebooks", token)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError((tmp_path / "lab.log").read_text()[-2000:]) from None
                time.sleep(0.5)
        names = {item["name"] for item in listing["content"]}
        expected = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
        assert expected and expected <= names
        kernelspecs = _get(f"{base}/api/kernelspecs", token)
        assert "python3" in kernelspecs["kernelspecs"]

        # Open a notebook as JupyterLab does: a session, whose kernel runs in notebooks/.
        name = "05_reanalysis.ipynb"
        session = _get(f"{base}/api/sessions", token, "POST",
                       {"path": f"notebooks/{name}", "name": name, "type": "notebook",
                        "kernel": {"name": "python3"}})
        connection = tmp_path / "runtime" / f"kernel-{session['kernel']['id']}.json"
        printed = _in_kernel(connection, "import os\nfrom recallscore_nb.workbook.paths import user_folder\n"
                                         "print(os.environ['JPY_SESSION_NAME'], os.getcwd(), "
                                         "user_folder(), sep='\\n')")
        variable, cwd, folder = printed.splitlines()
        assert Path(variable) == ROOT / "notebooks" / name
        assert Path(cwd) == ROOT / "notebooks" and Path(folder) == ROOT
        _get(f"{base}/api/sessions/{session['id']}", token, "DELETE")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
