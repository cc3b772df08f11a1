"""JupyterLab is part of the set-up: it starts, lists the notebooks, and offers the python3 kernel."""

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

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, token: str):
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


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
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
