"""The published numbers do not depend on the machine, nor on the order of the rows.

A second machine is simulated by changing what changes float arithmetic: OpenBLAS's kernel
(``OPENBLAS_CORETYPE``), its thread count, and numpy's CPU dispatch
(``NPY_DISABLE_CPU_FEATURES``, checked to take effect). Under each, ``recallscore run
--output-dir`` must write every table, figure, ``numbers.tex``, executed notebook and the
manifest byte for byte as ``reports/`` holds them. Before the exact sums (issue 28) the
systems table of notebook 08 differed in its bounds' last digits under the Prescott kernel.

Then the law: notebook 08's tables do not depend on the order of its files' rows.
"""

from __future__ import annotations

import gzip
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from recallscore_nb.analysis.meta_sets import meta_evaluate_sets
from recallscore_nb.io.human_sets import read_judged_sets
from recallscore_nb.workbook.report_differences import compare_reports

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
X86 = platform.machine().lower() in ("x86_64", "amd64")


def _dispatched_features() -> list[str]:
    """numpy's dispatch targets this CPU has (``NPY_DISABLE_CPU_FEATURES`` refuses others)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]


def _has(feature: str) -> bool:
    from numpy._core._multiarray_umath import __cpu_features__

    return bool(__cpu_features__.get(feature))


VARIANTS = {
    "openblas-prescott": ({"OPENBLAS_CORETYPE": "Prescott"}, X86),
    "openblas-haswell-one-thread": ({"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_NUM_THREADS": "1"},
                                    X86 and _has("AVX2")),
    "numpy-baseline-loops": ({"NPY_DISABLE_CPU_FEATURES": " ".join(_dispatched_features())},
                             bool(_dispatched_features())),
}


def _files(root: Path) -> dict[str, bytes]:
    """The folder's files by their path in it, those whose name starts with a dot left out."""
    return {name: p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not (name := p.relative_to(root).as_posix()).startswith(".")}


def test_the_numpy_variant_takes_effect():
    features = _dispatched_features()
    if not features:
        pytest.skip("numpy dispatches no optional loop on this CPU")
    env = os.environ | VARIANTS["numpy-baseline-loops"][0]
    probe = ("from numpy._core._multiarray_umath import __cpu_features__ as f; "
             f"print([x for x in {features!r} if f[x]])")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_run_writes_the_committed_bytes_under(variant, tmp_path):
    env_changes, applies = VARIANTS[variant]
    if not applies:
        pytest.skip(f"{variant} does not apply to this CPU ({platform.machine()})")
    out = tmp_path / "reports"
    env = os.environ | env_changes
    run = subprocess.run([sys.executable, "-m", "recallscore_nb", "run", "--output-dir",
                          str(out)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert compare_reports(_files(REPORTS), _files(out)) == []


def _shuffled_copy(name: str, folder: Path, seed: int) -> Path:
    """The set's three files with their rows in another order (items, attempts, judgments)."""
    source = ROOT / "recallscore_nb" / "data" / "human_judgments" / name
    rng = np.random.default_rng(seed)
    for file in ("attempts.parquet", "judgments.parquet"):
        table = pq.read_table(source / file)
        pq.write_table(table.take(rng.permutation(table.num_rows)), folder / file)
    with gzip.open(source / "items.jsonl.gz", "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines(keepends=True)
    (folder / "items.jsonl").write_text("".join(lines[i] for i in rng.permutation(len(lines))),
                                        encoding="utf-8")
    return folder


def _canonical(table: pd.DataFrame) -> str:
    """The table's rows sorted by its non-float columns, as CSV: its content, not its order."""
    table = table.drop(columns="set")
    keys = [c for c in table.columns if not pd.api.types.is_float_dtype(table[c])]
    return table.sort_values(keys, kind="stable").reset_index(drop=True).to_csv(index=False)


def test_notebook_08s_tables_do_not_depend_on_the_rows_order(tmp_path):
    (shipped,) = read_judged_sets("openqa-nq301")
    folder = _shuffled_copy("openqa-nq301", tmp_path, seed=5)
    shuffled = read_judged_sets("", items_path=str(folder / "items.jsonl"),
                                attempts_path=str(folder / "attempts.parquet"),
                                judgments_path=str(folder / "judgments.parquet"))
    options = dict(resamples=300, seed=3, annotators=",".join(shipped.annotators))
    a, b = meta_evaluate_sets([shipped], **options), meta_evaluate_sets(shuffled, **options)
    names = list(a.evaluations["openqa-nq301"].tables())
    assert {"systems", "agreement", "ranking", "disagreements"} <= set(names)
    for name in names:
        assert _canonical(getattr(a, name)) == _canonical(getattr(b, name)), name
