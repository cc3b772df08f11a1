"""What several chapters share: the scoring schema a notebook's parameters name."""

from __future__ import annotations

from pathlib import Path

from ...core.errors import UsageError
from ...core.schema import default_schema
from ...io.data import DEFAULT_SCHEMA_PATH
from ...io.scoring_schemas import load_scoring_schema
from ..session import Session

__all__ = ["scoring_schema"]


def scoring_schema(nb: Session):
    """The schema named by ``schema_path`` (read once, recorded as an input). Empty: the
    shipped schema for the shipped benchmark; for any other benchmark, no schema (every fact
    weight 1, no equivalents, contradictions or negation), since the shipped one names the
    shipped benchmark's facts."""
    def load():
        given = str(nb.parameters.get("schema_path") or "")
        if not given and nb.parameters.get("benchmark_path"):
            return default_schema(nb.benchmark)
        path = Path(given) if given else DEFAULT_SCHEMA_PATH
        if not path.is_file():
            raise UsageError(f"schema_path: no such file: {path}")
        return load_scoring_schema(str(nb.read_input(path)), nb.benchmark)

    return nb.memo("scoring schema", load)
