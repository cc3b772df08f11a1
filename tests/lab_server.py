"""JupyterLab started for a test: on a free port of the loopback, with a token, its log in a
file; stopped (terminated, then killed) however the test ends."""

from __future__ import annotations

import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def jupyter_lab(log: Path, *, cwd: Path, env: dict, options: tuple[str, ...] = ()):
    """Start ``python -m jupyterlab`` (this venv's) in ``cwd`` with ``env``; yield its base
    URL and token once it answers; a server that does not start within 90 s fails the test
    with the end of its log."""
    port, token = free_port(), secrets.token_hex(16)
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
             f"--port={port}", f"--IdentityProvider.token={token}",
             "--ServerApp.open_browser=False", "--allow-root", *options],
            cwd=cwd, env=env, stdout=sink, stderr=sink)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5).read()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise AssertionError(log.read_text()[-3000:]) from None
                    time.sleep(0.5)
            yield base, token
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
