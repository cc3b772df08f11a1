"""The cost curve of ``recallscore score``: rows/s and peak memory from 10^5 to 2×10^7 attempts.

For each shape and each size, it writes an attempts Parquet file into a scratch folder
(``benchmarks/out/`` by default, git-ignored), runs ``python -m recallscore_nb score …
--out S.parquet --quiet`` under ``/usr/bin/time``, and records its wall time, CPU time, peak
RSS (the largest resident set of the process and its children) and peak summed PSS (every
process of the tree sampled every 100 ms: a page a forked worker shares with its parent
counts once). On the half-distinct shapes it then checks every row of the scored file
against the whole-table path (:func:`check_rows`). The per-row
baseline's rate (``tests/oracles/reference_rules.score_row`` in a plain loop, the file read
with the ``csv`` module: ``baseline_loop.py``) is measured once per shape on the smallest
size. Results go to JSON; ``--figure`` draws them (log-log, with the baseline's rate and the
1 GiB line).

    .venv/bin/python benchmarks/cost_curve.py --sizes 100000 1000000 --shapes one
    .venv/bin/python benchmarks/cost_curve.py --figure-only   # redraw from the JSON

The shapes. ``one`` and ``items``: the generator of ``generate.py`` makes a pool of distinct
attempts (half the rows up to 10^6 rows; at most 10^6 distinct above, so 2×10^7 rows are 5 %
distinct), the rows are drawn from the pool; ``one`` scores them against the shipped
benchmark, ``items`` against ``n / 100`` items (at most 100,000) from ``items_shape``, half of
the attempts ending in their item's own token. ``half`` and ``half-items``: the shipped
benchmark's twelve attempts drawn at random, half of the rows with a distinct number appended
(so half the rows are distinct however many there are), in row groups of 250,000; ``half``
against the shipped benchmark, ``half-items`` against 100,000 items.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import generate
from generate import REPO

OUT = Path(__file__).resolve().parent / "out"
RESULTS = Path(__file__).resolve().parent / "cost_curve.json"
FIGURE = Path(__file__).resolve().parent / "cost_curve.png"
SIZES = (100_000, 1_000_000, 4_000_000, 20_000_000)
SHAPES = ("one", "items", "half", "half-items")
POOL_MAX = 1_000_000
BLOCK = 1 << 20
GIB = 1024 ** 3


def pool(rows: int, seed: int) -> pa.Array:
    """Distinct attempts from the generator: half of ``rows``, at most :data:`POOL_MAX`."""
    _, _, seeds = generate.load_benchmark()
    wanted = min(max(2, rows // 2), POOL_MAX)
    return pa.array(list(dict.fromkeys(generate.make_attempts(seeds, 2 * wanted, seed))),
                    type=pa.string())


def write_attempts(path: Path, rows: int, seed: int, items: list[str] | None = None) -> None:
    """``rows`` attempts (``id``, [``item``,] ``attempt``) in row groups of 1Mi rows, written a
    block at a time (the generator's memory stays small)."""
    rng = np.random.default_rng(seed)
    texts = pool(rows, seed)
    schema, item_ids = _schema(items)
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, BLOCK):
            n = min(BLOCK, rows - start)
            chosen = texts.take(pa.array(rng.integers(0, len(texts), n)))
            columns = {"id": _ids(start, n)}
            if items:
                which = rng.integers(0, len(items), n)
                item = item_ids.take(pa.array(which))
                own = pc.binary_join_element_wise(chosen, " w", pc.cast(pa.array(which),
                                                                          pa.string()), "")
                chosen = pc.if_else(pa.array(rng.random(n) < 0.5), own, chosen)
                columns["item"] = item
            columns["attempt"] = chosen
            writer.write_table(pa.table(columns, schema=schema))


def _schema(items: list[str] | None) -> tuple[pa.Schema, pa.Array | None]:
    """The attempts file's schema (``id``, [``item``,] ``attempt``) and the item ids."""
    names = ["id"] + (["item"] if items else []) + ["attempt"]
    item_ids = pa.array(items, type=pa.string()) if items else None
    return pa.schema([(name, pa.string()) for name in names]), item_ids


def _ids(start: int, n: int) -> pa.Array:
    """The ids of rows ``start`` to ``start + n - 1``: ``A0000000000``..."""
    numbers = pc.cast(pa.array(np.arange(start, start + n)), pa.string())
    return pc.binary_join_element_wise("A", pc.utf8_lpad(numbers, 10, "0"), "")


HALF_GROUP = 250_000
HALF_ITEMS = 100_000


def write_half_attempts(path: Path, rows: int, seed: int, items: list[str] | None = None) -> None:
    """``rows`` attempts of the half-distinct shape in row groups of :data:`HALF_GROUP`: each
    one of the shipped benchmark's twelve attempts at random, half of them (at random) with
    their row number appended, so that they are distinct; against ``items``, each row's item
    drawn at random."""
    _, _, seeds = generate.load_benchmark()
    variants = pa.array(seeds, type=pa.string())
    rng = np.random.default_rng(seed)
    schema, item_ids = _schema(items)
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, HALF_GROUP):
            n = min(HALF_GROUP, rows - start)
            numbers = pc.cast(pa.array(np.arange(start, start + n)), pa.string())
            chosen = variants.take(pa.array(rng.integers(0, len(seeds), n)))
            numbered = pc.binary_join_element_wise(chosen, numbers, " ")
            columns = {"id": _ids(start, n)}
            if items:
                columns["item"] = item_ids.take(pa.array(rng.integers(0, len(items), n)))
            columns["attempt"] = pc.if_else(pa.array(rng.random(n) < 0.5), numbered, chosen)
            writer.write_table(pa.table(columns, schema=schema), row_group_size=HALF_GROUP)


def write_items(path: Path, count: int, seed: int) -> list[str]:
    import items_shape

    made = items_shape.make_items(count, seed)
    items_shape.write_items_file(path, made)
    return [item_id for item_id, _, _ in made]


def item_count(rows: int, shape: str = "items") -> int:
    if shape == "half-items":
        return HALF_ITEMS
    return max(10, min(rows // 100, 100_000))


def write_shape(shape: str, path: Path, rows: int, seed: int, items) -> None:
    """The attempts of ``shape`` (``one``, ``items``, ``half``, ``half-items``) at ``path``."""
    if shape.startswith("half"):
        write_half_attempts(path, rows, seed, items)
    else:
        write_attempts(path, rows, seed, items)


TIME = "/usr/bin/time"


def run_child(cmd: list[str]) -> dict:
    """Run ``cmd`` under ``/usr/bin/time``; its wall time, CPU time, peak RSS (the largest
    resident set of it and its children, as ``time`` reports it) and peak summed PSS (every
    process of the tree, ``time`` included, sampled every :data:`SAMPLE_SECONDS`).

    Not ``os.wait4`` on a child of this process: Linux carries the RSS high-water mark of the
    process that forks (this one, which holds the generated attempts) into the child across
    ``exec``, so the child's own figure would be this process's. ``time`` is small when it
    forks the command."""
    start = time.perf_counter()
    proc = subprocess.Popen([TIME, "-f", "@@ %M %U %S", *cmd], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sampler = PssSampler(proc.pid)
    sampler.start()
    _, stderr = proc.communicate()
    seconds = time.perf_counter() - start
    sampler.stop()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{stderr[-2000:]}")
    line = [x for x in stderr.splitlines() if x.startswith("@@ ")][-1].split()
    return {"seconds": seconds, "cpu_seconds": float(line[2]) + float(line[3]),
            "peak_rss_bytes": int(line[1]) * 1024, "peak_pss_bytes": sampler.peak,
            "peak_pss_by_process": sampler.peak_parts}


SAMPLE_SECONDS = 0.1


class PssSampler:
    """The summed PSS of a process and all its descendants, sampled every
    :data:`SAMPLE_SECONDS` in a thread (``psutil``'s ``memory_full_info().pss``); ``peak``
    is the largest sum, ``peak_parts`` each process's PSS at that moment (MiB, largest
    first)."""

    def __init__(self, pid: int) -> None:
        import threading

        import psutil

        self.root = psutil.Process(pid)
        self.peak, self.peak_parts = 0, []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def sample(self) -> None:
        import psutil

        try:
            tree = [self.root] + self.root.children(recursive=True)
        except psutil.Error:
            return
        parts = []
        for process in tree:
            try:
                parts.append(process.memory_full_info().pss)
            except psutil.Error:  # ended meanwhile
                pass
        if sum(parts) > self.peak:
            self.peak = sum(parts)
            self.peak_parts = sorted((round(p / 2**20) for p in parts), reverse=True)

    def _run(self) -> None:
        while not self._done.wait(SAMPLE_SECONDS):
            self.sample()


def check_rows(shape: str, attempts: Path, out: Path, items_path: Path | None) -> int:
    """Every row of the scored file ``out`` against the whole-table path (the core's
    ``score_benchmark`` or ``score_items`` in this process, as ``score`` runs on a file it
    reads whole), one row group of ``attempts`` at a time: scoring is row by row, so the
    whole table's rows are those of its pieces. Returns the rows compared; raises when any
    differs."""
    from recallscore_nb.core import scoring
    from recallscore_nb.io.benchmarks import load_benchmark
    from recallscore_nb.io.items import load_items

    source = pq.ParquetFile(attempts)
    scored = pq.ParquetFile(out)
    items = load_items(items_path) if items_path is not None else None
    prepared = scoring.prepare_items(items) if items is not None else None
    bench = load_benchmark() if items is None else None
    batches = scored.iter_batches(batch_size=HALF_GROUP)
    done = 0
    for group in range(source.num_row_groups):
        frame = source.read_row_group(group).to_pandas(types_mapper=pd_string)
        if items is None:
            whole = scoring.score_benchmark(bench, frame)
        else:
            whole = scoring.score_items(items, frame, prepared=prepared)
        got = pa.Table.from_batches([next(batches)]).to_pandas(types_mapper=pd_string)
        whole = pa.Table.from_pandas(whole, preserve_index=False).to_pandas(
            types_mapper=pd_string)
        if not got.equals(whole):
            raise SystemExit(f"{shape}: row group {group} differs from the whole-table path")
        done += len(got)
    return done


def pd_string(kind):
    import pandas as pd

    return pd.ArrowDtype(pa.string()) if kind == pa.string() else None


def measure(shape: str, rows: int, folder: Path, seed: int, check: bool = True) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    attempts = folder / f"{shape}_{rows}.parquet"
    out = folder / f"{shape}_{rows}.scored.parquet"
    scorer: list[str] = []
    items = items_path = None
    if shape in ("items", "half-items"):
        items_path = folder / f"items_{item_count(rows, shape)}.jsonl"
        items = write_items(items_path, item_count(rows, shape), seed)
        scorer = [str(items_path)]
    print(f"{shape} {rows:,}: writing the attempts ...", flush=True)
    write_shape(shape, attempts, rows, seed, items)
    print(f"{shape} {rows:,}: scoring ...", flush=True)
    result = run_child([sys.executable, "-m", "recallscore_nb", "score", *scorer, "--attempts",
                        str(attempts), "--out", str(out), "--quiet"])
    scored_rows = pq.ParquetFile(out).metadata.num_rows
    assert scored_rows == rows, (scored_rows, rows)
    result.update(shape=shape, rows=rows, rows_per_second=rows / result["seconds"],
                  items=len(items) if items else None,
                  input_bytes=attempts.stat().st_size, output_bytes=out.stat().st_size)
    print(f"  {result['seconds']:.1f} s, {result['rows_per_second']:,.0f} rows/s, "
          f"peak RSS {result['peak_rss_bytes'] / 2**20:,.0f} MiB, peak PSS "
          f"{result['peak_pss_bytes'] / 2**20:,.0f} MiB {result['peak_pss_by_process']}",
          flush=True)
    if check and shape.startswith("half"):
        result["rows_checked"] = check_rows(shape, attempts, out, items_path)
        print(f"  every row equal to the whole-table path ({result['rows_checked']:,})",
              flush=True)
    attempts.unlink()
    out.unlink()
    return result


def baseline(shape: str, rows: int, folder: Path, seed: int) -> dict:
    """The independent per-row loop (``baseline_loop.py``: CSV read with the csv module, every
    rule of the oracle) on ``rows`` attempts of the shape, as a child process."""
    folder.mkdir(parents=True, exist_ok=True)
    attempts = folder / f"baseline_{shape}_{rows}.parquet"
    csv_path = attempts.with_suffix(".csv")
    scorer: list[str] = []
    items = None
    if shape in ("items", "half-items"):
        items_path = folder / f"items_{item_count(rows, shape)}.jsonl"
        items = write_items(items_path, item_count(rows, shape), seed)
        scorer = ["--items", str(items_path)]
    write_shape(shape, attempts, rows, seed, items)
    pq.read_table(attempts).to_pandas().to_csv(csv_path, index=False)
    attempts.unlink()
    here = Path(__file__).resolve().parent
    result = run_child([sys.executable, str(here / "baseline_loop.py"), str(csv_path), *scorer,
                        "--out", str(folder / "baseline.jsonl")])
    csv_path.unlink()
    (folder / "baseline.jsonl").unlink()
    result.update(shape=shape, rows=rows, rows_per_second=rows / result["seconds"])
    print(f"baseline {shape} {rows:,}: {result['rows_per_second']:,.0f} rows/s", flush=True)
    return result


def draw(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (speed, memory) = plt.subplots(1, 2, figsize=(10, 4))
    shapes = (("one", "o", 4), ("items", "s", -10), ("half", "^", 4), ("half-items", "v", -10))
    for shape, marker, offset in shapes:
        runs = sorted((r for r in results["runs"] if r["shape"] == shape), key=lambda r: r["rows"])
        if not runs:
            continue
        rows = [r["rows"] for r in runs]
        speed.plot(rows, [r["rows_per_second"] for r in runs], marker=marker,
                   label=f"recallscore score ({shape})")
        pss = all("peak_pss_bytes" in r for r in runs)  # runs before PSS was sampled: RSS
        memory.plot(rows, [r["peak_pss_bytes" if pss else "peak_rss_bytes"] / 2**20 for r in runs],
                    marker=marker, label=f"{shape}: peak {'summed PSS' if pss else 'RSS'}")
        base = results.get("baseline", {}).get(shape)
        if base:
            speed.axhline(base["rows_per_second"], linestyle=":", color="grey")
            speed.annotate(f"per-row loop, file read ({shape})",
                           (rows[0], base["rows_per_second"]), textcoords="offset points",
                           xytext=(0, offset), fontsize=8)
    memory.axhline(1024, linestyle="--", color="red")
    memory.annotate("1 GiB", (min(r["rows"] for r in results["runs"]), 1024),
                    textcoords="offset points", xytext=(0, 4), fontsize=8, color="red")
    for ax, label in ((speed, "rows per second"), (memory, "peak memory (MiB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("attempts")
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
    memory.set_ylim(top=4096)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def table(results: dict) -> str:
    lines = ["| shape | attempts | items | seconds | rows/s | × per-row loop | peak RSS (MiB) "
             "| peak PSS (MiB) | rows checked |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for run in sorted(results["runs"], key=lambda r: (r["shape"], r["rows"])):
        base = results.get("baseline", {}).get(run["shape"])
        ratio = f"{run['rows_per_second'] / base['rows_per_second']:.1f}×" if base else "n/a"
        lines.append(f"| {run['shape']} | {run['rows']:,} | {run['items'] or ''} | "
                     f"{run['seconds']:.1f} | {run['rows_per_second']:,.0f} | {ratio} | "
                     f"{run['peak_rss_bytes'] / 2**20:,.0f} | "
                     f"{_mib(run.get('peak_pss_bytes'))} | {_count(run.get('rows_checked'))} |")
    return "\n".join(lines)


def _mib(value) -> str:
    return "" if value is None else f"{value / 2**20:,.0f}"


def _count(value) -> str:
    return "" if value is None else f"{value:,}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--shapes", nargs="+", choices=SHAPES,
                        default=list(SHAPES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--folder", type=Path, default=OUT, help="scratch folder for the files")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--figure", type=Path, default=FIGURE)
    parser.add_argument("--baseline-rows", type=int, default=100_000)
    parser.add_argument("--figure-only", action="store_true")
    parser.add_argument("--no-check", action="store_true",
                        help="do not check the half-distinct shapes' rows (quicker)")
    args = parser.parse_args(argv)
    results = json.loads(args.results.read_text()) if args.results.exists() else {"runs": []}
    if not args.figure_only:
        free = shutil.disk_usage(args.folder.parent if not args.folder.exists()
                                 else args.folder).free
        need = max(args.sizes) * 160  # attempts and scored output, bytes per row (measured)
        if free < 2 * need:
            raise SystemExit(f"not enough disk space in {args.folder}: {free / GIB:.1f} GiB free, "
                             f"{2 * need / GIB:.1f} GiB wanted")
        for shape in args.shapes:
            results.setdefault("baseline", {})[shape] = baseline(shape, args.baseline_rows,
                                                                args.folder, args.seed)
            for rows in args.sizes:
                run = measure(shape, rows, args.folder, args.seed, check=not args.no_check)
                results["runs"] = [r for r in results["runs"]
                                   if (r["shape"], r["rows"]) != (shape, rows)] + [run]
                args.results.write_text(json.dumps(results, indent=1) + "\n")
        results["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                              "pyarrow": pa.__version__}
        args.results.write_text(json.dumps(results, indent=1) + "\n")
    draw(results, args.figure)
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
