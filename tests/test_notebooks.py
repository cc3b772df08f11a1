"""Every notebook, end to end: executed by nbclient in a fresh python3 kernel.

Notebooks are found by glob, so a new notebook is tested without editing this file: each runs
with small parameters into a temporary ``output_dir`` (run alone, it publishes itself there:
its outputs, ``manifest.json`` and ``paper/numbers.tex``), and the tables its manifest entry
lists are read back. Known notebooks get value checks beyond that.
"""

from __future__ import annotations

import ast
import base64
import json
import os
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbclient import NotebookClient
from papermill.iorw import load_notebook_node
from papermill.parameterize import parameterize_notebook

from recallscore_nb.workbook import runner
from recallscore_nb.workbook.parameters import declared_parameters

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SMALL = {"resamples": 200}  # applied to the notebooks that declare them


def execute(path: Path, output_dir: Path, **parameters) -> nbformat.NotebookNode:
    """Run a notebook as papermill would, but with nbclient directly; return it executed."""
    declared = declared_parameters(path)
    values = {k: v for k, v in SMALL.items() if k in declared}
    values.update(parameters, output_dir=str(output_dir))
    nb = parameterize_notebook(load_notebook_node(str(path)), values)
    NotebookClient(nb, kernel_name="python3", timeout=300,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def entry(output_dir: Path, stem: str) -> dict:
    """The notebook's entry in the output folder's manifest (its outputs, inputs, numbers)."""
    return json.loads((output_dir / "manifest.json").read_text())["notebooks"][stem]


def tables(output_dir: Path, stem: str) -> dict[str, pd.DataFrame]:
    fragment = entry(output_dir, stem)
    return {
        Path(o["path"]).stem.split("__", 1)[1]: pd.read_csv(output_dir / o["path"],
                                                             keep_default_na=False)
        for o in fragment["outputs"] if o["path"].endswith(".csv")
    }


@pytest.fixture
def own_benchmark(tmp_path):
    """Another reference, three facts (one a two-word term), four rows: counted by hand."""
    reference = "A red kite nests in the tall oak by the river."
    rows = [reference, reference.upper(), "Kite nests in oak by the river.",
            "A red kite nests in the oak near the river!"]
    bench = {
        "schemaVersion": 1,
        "referenceAnswer": reference,
        "protocol": {"factChecklist": [
            {"fact": "bird", "requiredTerms": ["red kite"]},
            {"fact": "tree", "requiredTerms": ["oak"]},
            {"fact": "place", "requiredTerms": ["river"]},
        ]},
        "rows": [{"id": f"K{i}", "attempt": a} for i, a in enumerate(rows, start=1)],
    }
    path = tmp_path / "kite.json"
    path.write_text(json.dumps(bench))
    return type("Own", (), {"path": path, "rows": 4, "literal": 1, "checklist": 3, "facts": 3})


def _check_01(t):
    summary = t["summary"].set_index("field")
    assert summary.loc["literalFullMatches", "recomputed"] == 1
    assert summary.loc["normalizedFullMatches", "recomputed"] == 4
    assert summary.loc["checklistFullMatches", "recomputed"] == 8
    assert t["labels"]["agrees"].tolist() == [True] * 12
    assert t["scores"]["facts_present"].tolist() == [4] * 8 + [3] * 4


def _check_07(t):
    m = t["matrix"].set_index("id")
    statuses = m.filter(like="status_")
    assert (statuses.loc[[f"R0{i}" for i in range(1, 9)]] == "present").all().all()
    assert statuses.loc["R09", "status_material"] == "missing"
    assert statuses.loc["R10", "status_location"] == "contradicted"
    assert statuses.loc["R11", "status_timing"] == "contradicted"
    assert statuses.loc["R12", "status_material"] == "contradicted"
    # weights material 1, object 1, location 2, timing 2; penalty 0.5
    assert m.loc[["R09", "R10", "R12"], "weighted_score"].tolist() == [5 / 6, 1 / 2, 3 / 4]


def _check_05(t):
    controls = t["controls"].set_index("control")
    numeric = controls.select_dtypes("number").drop(columns="attempts")
    # the empty and "I don't know" controls score 0 everywhere; the stuffing control 0 under
    # the schema's measures (what the published rules give it is the stuffing table's finding)
    assert (numeric.drop(index="control:stuffing") == 0).all().all()
    assert (numeric.loc["control:stuffing", ["schema_full_match", "weighted_score"]] == 0).all()
    assert set(t["stuffing"]["must be 0"]) == {"yes", "no (published rule)"}


VALUE_CHECKS = {"01_reproduce_benchmark": _check_01, "05_reanalysis": _check_05,
                "07_fact_status": _check_07}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_writes_what_it_lists(path, tmp_path):
    nb = execute(path, tmp_path)
    errors = [o for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    fragment = entry(tmp_path, path.stem)
    assert fragment["outputs"], "a notebook writes at least one table or figure"
    for output in fragment["outputs"]:
        assert Path(output["path"]).name.startswith(f"{path.stem}__")
        assert (tmp_path / output["path"]).stat().st_size > 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert "output_dir" not in manifest["parameters"][path.stem]
    assert manifest["notebooks"][path.stem]["defaults"] == {
        name: p.default for name, p in declared_parameters(path).items() if name != "output_dir"}
    assert not (tmp_path / "fragments").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    for frame in tables(tmp_path, path.stem).values():
        assert len(frame.columns) > 0
    VALUE_CHECKS.get(path.stem, lambda t: None)(tables(tmp_path, path.stem))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_stored_clean_with_one_documented_parameters_cell(path):
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    tagged = [c for c in code if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0] is code[0]
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None
        assert "def " not in cell.source and "class " not in cell.source
    declared = declared_parameters(path)
    assert "output_dir" in declared and declared["output_dir"].default == ""
    assert all(p.help for p in declared.values()), "every parameter has a help comment"
    reads_benchmark = "benchmark" in "".join(c.source for c in nb.cells).lower()
    if "benchmark_path" in declared or reads_benchmark:
        assert declared.get("benchmark_path") is not None


def test_unknown_parameter_is_an_error_in_the_notebook(tmp_path):
    path = NOTEBOOKS[0]
    nb = parameterize_notebook(load_notebook_node(str(path)),
                               {"output_dir": str(tmp_path), "no_such_parameter": 1})
    client = NotebookClient(nb, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(path.parent)}})
    with pytest.raises(Exception, match="unknown parameter 'no_such_parameter'"):
        client.execute()


def test_notebook_01_on_a_benchmark_of_our_own(tmp_path, own_benchmark):
    path = ROOT / "notebooks" / "01_reproduce_benchmark.ipynb"
    import papermill

    papermill.execute_notebook(str(path), str(tmp_path / "out.ipynb"),
                               parameters={"output_dir": str(tmp_path),
                                           "benchmark_path": str(own_benchmark.path)},
                               kernel_name="python3", progress_bar=False)
    t = tables(tmp_path, "01_reproduce_benchmark")
    summary = t["summary"].set_index("field")["recomputed"].to_dict()
    assert summary["variantCount"] == own_benchmark.rows
    assert summary["literalFullMatches"] == own_benchmark.literal
    assert summary["checklistFullMatches"] == own_benchmark.checklist
    assert t["scores"]["facts_total"].unique().tolist() == [own_benchmark.facts]


# --- how a notebook reads ------------------------------------------------------------------------
def _shows(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` shows ``name``: the name itself, or the session's visible call that
    writes it and returns it (``nb.save("what", name)``, ``nb.quote(name)``)."""
    if not isinstance(statement, ast.Expr):
        return False
    value = statement.value
    if isinstance(value, ast.Name):
        return value.id == name
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "nb"
            and (value.func.attr, len(value.args)) in (("save", 2), ("quote", 1))
            and isinstance(value.args[-1], ast.Name) and value.args[-1].id == name
            and not value.keywords
            and (value.func.attr == "quote" or isinstance(value.args[0], ast.Constant)))


def _is_plain(node: ast.expr, declared) -> bool:
    """An argument a reader can follow: a constant or a tuple of them, an earlier result or a
    field of it, a parameter (``params.<declared name>``), what the session holds or reads
    (``nb.benchmark``, ``nb.read_input(…)``), another call of the package, or ``a or b`` and
    ``a if c else b`` of those."""
    if isinstance(node, ast.Constant | ast.Name):
        return True
    if isinstance(node, ast.Tuple):
        return all(_is_plain(e, declared) for e in node.elts)
    if isinstance(node, ast.Starred):
        return _is_call(node.value, declared)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return all(_is_plain(v, declared) for v in node.values)
    if isinstance(node, ast.IfExp):
        return all(_is_plain(n, declared) for n in (node.test, node.body, node.orelse))
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "params":
            return node.attr in declared
        return isinstance(node.value, ast.Name | ast.Attribute) and _is_plain(node.value, declared)
    return _is_call(node, declared) or _is_session_call(node, declared)


def _arguments_plain(node: ast.Call, declared) -> bool:
    return (all(_is_plain(a, declared) for a in node.args)
            and all(k.arg is not None and _is_plain(k.value, declared) for k in node.keywords))


def _is_call(node: ast.expr, declared) -> bool:
    """``rs.name(…)``: a public function of the package, its arguments plain."""
    import recallscore_nb

    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "rs"
            and node.func.attr in recallscore_nb.__all__ and _arguments_plain(node, declared))


def _is_session_call(node: ast.expr, declared) -> bool:
    """A call of what the session holds: ``nb.read_input(…)``, ``nb.schema.signature()``."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    root = node.func.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and root.id == "nb" and _arguments_plain(node, declared)


def _is_step(node: ast.expr, declared) -> bool:
    """What a cell binds: a call of the package (or a field of its result, as
    ``rs.reproduce(…).rows``), or a field of an earlier result (``evaluation.systems``)."""
    if isinstance(node, ast.Attribute):
        value = node.value
        return _is_call(value, declared) or (isinstance(value, ast.Name)
                                             and value.id not in ("nb", "params", "rs"))
    return _is_call(node, declared)


def _session_cell_ok(source: str, stem: str, declared) -> bool:
    """``import recallscore_nb as rs``, ``nb = rs.start_notebook("<stem>", globals())``,
    ``params = nb.params``, the signatures (``nb.sign_rules(…)``, ``nb.sign(…)``), ``nb``."""
    lines = source.splitlines()
    if lines[:3] != ["import recallscore_nb as rs",
                     f'nb = rs.start_notebook("{stem}", globals())', "params = nb.params"]:
        return False
    body = ast.parse(source).body
    signing = body[3:-1]
    return (ast.unparse(body[-1]) == "nb" and all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
        and ast.unparse(s.value.func) in ("nb.sign", "nb.sign_rules")
        and _arguments_plain(s.value, declared) for s in signing))


SESSION_READS = {"output_dir", "benchmark_path", "schema_path", "catalogue_path"}
"""The parameters the session itself uses (``nb.benchmark``, ``nb.schema``, ``nb.catalogue``)."""


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_cell_binds_one_call_to_a_name_and_shows_it(path):
    nb = nbformat.read(path, as_version=4)
    declared = set(declared_parameters(path))
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert all("nb.parameters[" not in source for source in code)
    assert _session_cell_ok(code[1], path.stem, declared), code[1]
    assert code[-1] == "nb.finish()"
    names = []
    for source in code[2:-1]:
        body = ast.parse(source).body
        assert len(body) == 2, source
        bind, show = body
        assert (isinstance(bind, ast.Assign) and len(bind.targets) == 1
                and isinstance(bind.targets[0], ast.Name)
                and _is_step(bind.value, declared)), source
        name = bind.targets[0].id
        assert _shows(show, name), source
        assert name not in declared, f"{source}: rebinds the parameter {name!r}"
        names.append(name)
    assert len(names) == len(set(names)), "each value has a name of its own"
    assert names[-1] == "numbers" and code[-2].endswith("nb.quote(numbers)")
    used = set(re.findall(r"\bparams\.(\w+)", "\n".join(code[1:])))
    assert declared - SESSION_READS <= used, "every option appears where it is used"


def test_the_cell_check_refuses_what_a_reader_could_not_follow():
    declared = {"seed", "squad_mode"}

    def ok(source):
        bind, show = ast.parse(source).body
        return _is_step(bind.value, declared) and _shows(show, bind.targets[0].id)

    assert ok('scores = rs.score_benchmark(nb.benchmark, squad_mode=params.squad_mode)\n'
              'nb.save("scores", scores)')
    assert ok("numbers = rs.reproduction_numbers(labels, summary)\nnb.quote(numbers)")
    assert ok("scored = rs.with_schema_measures(rs.score_benchmark(nb.benchmark), nb.benchmark, "
              "nb.schema)\nscored")
    assert ok('labels = rs.reproduce(nb.benchmark, squad_mode="v1.1").rows\nlabels')
    assert ok('systems = evaluation.systems\nnb.save("systems", systems)')
    assert not ok('scores = rs.score_benchmark(nb.benchmark)\nnb.save("scores", other)')
    assert not ok('scores = rs.score_benchmark(nb.benchmark)\nnb.save(what, scores)')
    assert not ok("scores = rs.score_benchmark(int(params.seed))\nscores")
    assert not ok("scores = rs.score_benchmark(nb.benchmark, squad_mode=params.mode)\nscores")
    assert not ok("scores = rs._scores(nb)\nscores")
    assert not ok("scores = chapter.scores(nb)\nscores")
    assert not ok("scores = helpers.scores(nb)\nscores")
    assert not ok("scores = nb.benchmark\nscores")
    assert not ok("scores = rs.score_benchmark(*options)\nscores")


# --- executed notebooks, committed and checked --------------------------------------------------
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """The workbook run twice, from two folders, one notebook at a time and two at a time."""
    first, second = (tmp_path_factory.mktemp(name) for name in ("first", "second"))
    runner.run_workbook(output_dir=first / "reports", force=True, progress=False, stamps=False,
                        jobs=2)
    here = Path.cwd()
    os.chdir(second)
    try:
        runner.run_workbook(output_dir="reports", force=True, progress=False, stamps=False,
                            jobs=1)
    finally:
        os.chdir(here)
    return first, second


def test_executed_notebooks_are_byte_stable_and_hold_nothing_volatile(two_runs):
    first, second = two_runs
    executed = sorted((first / "reports" / "notebooks").iterdir())
    assert [p.name for p in executed] == [p.name for p in NOTEBOOKS]
    for path in executed:
        again = second / "reports" / "notebooks" / path.name
        assert path.read_bytes() == again.read_bytes(), path.name
        text = path.read_text(encoding="utf-8")
        for folder in (first, second, ROOT):
            assert str(folder) not in text, (path.name, folder)
        for volatile in ('"start_time"', '"end_time"', '"duration"', '"iopub.', '"input_path"',
                         '"output_path"'):
            assert volatile not in text, (path.name, volatile)
        assert not UUID.search(text), (path.name, UUID.search(text))


def test_executed_notebooks_show_every_step_and_are_listed(two_runs):
    first, _ = two_runs
    root = first / "reports"
    manifest = json.loads((root / "manifest.json").read_text())
    listed = {o["path"] for o in manifest["outputs"]}
    for stored in NOTEBOOKS:
        path = root / "notebooks" / stored.name
        assert f"notebooks/{stored.name}" in listed
        assert f"notebooks/{stored.name}" in {o["path"] for o in
                                                manifest["notebooks"][stored.stem]["outputs"]}
        nb = nbformat.read(path, as_version=4)
        assert [c.source for c in nb.cells] == [
            c.source for c in nbformat.read(stored, as_version=4).cells]  # defaults: no injection
        for cell in nb.cells[2:]:
            if cell.cell_type == "code":
                kinds = [o.output_type for o in cell.outputs]
                # the result (the session and the last cell draw theirs as display data), then
                # what it shows, as Markdown (issue 21): no stream, no error
                assert kinds[0] in ("execute_result", "display_data"), (stored.stem, cell.source, kinds)
                assert all(o.output_type == "display_data" and "text/markdown" in o.data
                           for o in cell.outputs[1:]), (stored.stem, cell.source, kinds)
                assert "at 0x" not in json.dumps(cell.outputs)  # no memory addresses
        figures = {o["path"] for o in manifest["notebooks"][stored.stem]["outputs"]
                   if o["path"].endswith(".png")}
        shown = {base64.b64decode(o.data["image/png"]) for c in nb.cells
                 if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {})}
        assert shown == {(root / f).read_bytes() for f in figures}  # each figure, as its file
