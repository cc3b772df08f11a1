"""The package as a whole: importing any of its modules leaves matplotlib as it was."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

EVERY_MODULE = """
import importlib, json, pkgutil
import matplotlib
matplotlib.use("pdf")                 # not what the package would pick
matplotlib.rcParams["font.size"] = 13.0  # a user's own setting
backend, before = matplotlib.get_backend(), {k: repr(v) for k, v in matplotlib.rcParams.items()}
import recallscore_nb
names = [m.name for m in pkgutil.walk_packages(recallscore_nb.__path__, "recallscore_nb.")
         if m.name != "recallscore_nb.__main__"]
for name in names:
    importlib.import_module(name)
after = {k: repr(v) for k, v in matplotlib.rcParams.items()}
print(json.dumps({"modules": names, "backend": [backend, matplotlib.get_backend()],
                  "changed": sorted(k for k in before.keys() | after.keys()
                                    if before.get(k) != after.get(k))}))
"""


def test_importing_every_module_leaves_the_backend_and_rcparams_alone():
    done = subprocess.run([sys.executable, "-c", EVERY_MODULE], capture_output=True, text=True,
                          check=True)
    found = json.loads(done.stdout)
    assert "recallscore_nb.render.figures" in found["modules"]
    assert "recallscore_nb.analysis.verdict_tables" in found["modules"]
    assert found["backend"] == ["pdf", "pdf"]
    assert found["changed"] == []


def test_drawing_a_figure_applies_the_style_only_while_it_draws():
    from recallscore_nb.render.figures import figure_bytes
    from recallscore_nb.render.plots import label_figure

    import pandas as pd

    before = {k: repr(v) for k, v in matplotlib.rcParams.items()}
    counts = pd.DataFrame({"rule": ["literal"], "complete_pass": [1], "complete_total": [2],
                           "incomplete_pass": [0], "incomplete_total": [1], "unlabelled": [0]})
    fig = label_figure(counts)
    assert figure_bytes(fig, "svg").startswith(b"<?xml")
    assert fig.texts == [] and fig.axes[0].title.get_fontsize() == 9.0  # the shipped style's
    assert {k: repr(v) for k, v in matplotlib.rcParams.items()} == before


# --- the public API ---------------------------------------------------------------------------
PUBLIC = {"__version__", "load_benchmark", "score_benchmark", "load_items", "score_items",
          "load_scoring_schema", "fact_status", "read_attempts", "literal_match",
          "normalized_match", "squad_exact_match", "token_f1", "contains", "checklist",
          "equivalent", "Benchmark",
          "RecallScoreError", "BenchmarkFormatError", "rules", "normalizers",
          "meta_table"}
"""The public names no committed notebook need call (``meta_table`` builds notebook 08's
registered tables: a new one's cell calls it)."""


def notebook_calls() -> set[str]:
    """The names the notebooks' cells call on the package (``rs.<name>``): public too."""
    names = set()
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        names |= {n for c in cells if c.cell_type == "code"
                  for n in re.findall(r"\brs\.(\w+)", c.source)}
    return names


def test_all_lists_the_public_api_and_every_name_imports():
    import recallscore_nb

    public = PUBLIC | notebook_calls()
    assert set(recallscore_nb.__all__) == public and len(recallscore_nb.__all__) == len(public)
    namespace: dict = {}
    exec(f"from recallscore_nb import {', '.join(sorted(public))}", namespace)
    assert all(namespace[name] is getattr(recallscore_nb, name) for name in public)
    assert public <= set(dir(recallscore_nb))
    assert namespace["score_items"].__module__ == "recallscore_nb.execution.api"
    assert namespace["load_items"].__module__ == "recallscore_nb.io.items"


def test_a_name_the_package_does_not_export():
    import recallscore_nb

    try:
        recallscore_nb.score_all
    except AttributeError as error:
        assert str(error) == "module 'recallscore_nb' has no attribute 'score_all'"
    else:  # pragma: no cover
        raise AssertionError("score_all is not public")


def test_importing_the_package_stays_cheap():
    code = ("import sys, recallscore_nb; print(sorted(m for m in ('numpy', 'pandas', 'pyarrow', "
            "'matplotlib', 'jsonschema') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_public_functions_score_as_the_readme_shows(tmp_path):
    from recallscore_nb import (checklist, fact_status, literal_match, load_benchmark,
                                load_items, load_scoring_schema, read_attempts, score_items,
                                token_f1)

    bench = load_benchmark()
    assert literal_match(["Paris", "paris"], "Paris").tolist() == [True, False]
    assert token_f1(["the quick brown fox"], "the quick fox").tolist() == [0.8]
    assert checklist(["west drawer"], {"place": ["west"]})["fact_place"].tolist() == [True]
    statuses = fact_status([bench.reference], bench, load_scoring_schema(None, bench))
    assert float(statuses["weighted_score"].iloc[0]) == 1.0
    (tmp_path / "items.jsonl").write_text('{"item": "q", "referenceAnswer": ["Paris"]}\n')
    (tmp_path / "a.csv").write_text("item,attempt\nq,paris\n")
    table = score_items(load_items(tmp_path / "items.jsonl"), read_attempts(str(tmp_path / "a.csv")))
    assert table["normalized_match"].tolist() == [True]
