"""Where the package data lives: every path in the installed package, every file there."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from recallscore_nb.io import data
from recallscore_nb.render.figures import STYLE_FILE


def test_every_shipped_file_is_in_the_package():
    package = data.DATA_DIR.parent
    assert package.name == "recallscore_nb" and (package / "__init__.py").is_file()
    for name in ("DEFAULT_BENCHMARK", "DEFAULT_SCHEMA_PATH", "DEFAULT_CATALOGUE", "DEFAULT_ATTEMPTS"):
        path = getattr(data, name)
        assert path.is_file() and data.DATA_DIR in path.parents, name
    assert data.DEFAULT_SCHEMA_PATH.parent == data.DEFAULT_BENCHMARK.parent == data.BENCHMARKS_DIR


def test_every_json_schema_is_a_valid_draft_2020_12_schema():
    schemas = sorted(data.SCHEMAS_DIR.glob("*.schema.json"))
    assert [p.name for p in schemas] == ["benchmark.schema.json", "catalogue.schema.json",
                                        "report.schema.json", "scoring.schema.json"]
    for path in schemas:
        Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_render_finds_the_style_where_the_data_is():
    assert STYLE_FILE == data.DATA_DIR / "recallscore.mplstyle" and STYLE_FILE.is_file()
