"""environment.yml, pyproject.toml and constraints.txt name the same packages and versions."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# pip (PyPI) name -> conda-forge name, where the two differ.
CONDA_NAMES = {"matplotlib": "matplotlib-base"}


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower()


def _pyproject_names() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    requirements = project["dependencies"] + extras["test"] + extras["dask"]
    return {_name(r) for r in requirements}


def _conda_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        match = re.fullmatch(r"  - ([A-Za-z0-9_.-]+)=([^=\s]+)", line)
        if match and match.group(1) != "python":
            pins[match.group(1).lower()] = match.group(2)
    return pins


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.strip().lower()] = version.strip()
    return pins


def test_environment_names_the_pyproject_dependencies():
    expected = {CONDA_NAMES.get(n, n) for n in _pyproject_names()}
    assert set(_conda_pins()) == expected


def test_environment_pins_the_constraints_versions():
    constraints = _constraints()
    pip_name = {conda: pip for pip, conda in CONDA_NAMES.items()}
    for conda_name, version in _conda_pins().items():
        assert constraints[pip_name.get(conda_name, conda_name)] == version, conda_name


def test_every_direct_dependency_is_pinned():
    assert _pyproject_names() <= set(_constraints())


def test_environment_installs_the_package_with_pip():
    text = (ROOT / "environment.yml").read_text()
    assert "- pip:" in text and "- -e .[test,dask]" in text
    assert "python=3.11" in text and "conda-forge" in text
