"""What each command of the command line does, as one call: load, compute, write, report.

These functions read and write files and return the lines to print; :mod:`recallscore_nb.cli`
only parses arguments and prints.
"""

from __future__ import annotations

from pathlib import Path

from ._version import __version__
from .attempts import read_attempts, write_table
from .benchmarks import load_benchmark
from .errors import AttemptsFormatError
from .reproduce import Reproduction, reproduce
from .rules import rules_for
from .scoring import output_columns, score_benchmark
from .tables import write_csv

__all__ = ["score_command", "reproduce_command", "render_reproduction"]


def score_command(benchmark_path, attempts_path, out, *, squad_mode: str = "v1.1") -> list[str]:
    """Score a benchmark's rows or an attempts file; write the table; return the signatures."""
    bench = load_benchmark(benchmark_path)
    attempts = None
    if attempts_path is not None:
        attempts = read_attempts(attempts_path)
        clash = sorted(set(attempts.columns[2:]) & set(output_columns(bench)))
        if clash:
            raise AttemptsFormatError(
                attempts_path, "", clash[0],
                message=f"column {clash[0]!r} collides with an output column; rename it",
            )
    scores = score_benchmark(bench, attempts, squad_mode=squad_mode)
    signatures = [rule.signature() for rule in rules_for(squad_mode)]
    metadata = {"version": __version__, "signatures": signatures,
                "benchmark_sha256": bench.sha256}
    write_table(scores, out, metadata=metadata)
    return signatures


def render_reproduction(rep: Reproduction) -> list[str]:
    """Published beside recomputed: the summary, one line per difference, the verdict."""
    lines = [f"{'FIELD':<34}{'published':>10}{'recomputed':>12}"]
    for record in rep.summary.itertuples(index=False):
        lines.append(f"{record.field:<34}{_cell(record.published):>10}{_cell(record.recomputed):>12}")
    if rep.differences:
        lines.append("ROW FIELD published recomputed")
        lines.extend(str(d) for d in rep.differences)
    if rep.unchecked:
        lines.append(f"unchecked ({len(rep.unchecked)}): {', '.join(rep.unchecked)}")
    if rep.checked == 0:
        lines.append("FAIL: the file publishes nothing to check")
    else:
        verdict = "OK" if rep.agrees else "DIFFERENT"
        lines.append(f"{verdict}: {rep.rows_agreeing} of {rep.rows_with_labels} rows with "
                     f"published labels agree; {rep.checked} published values checked, "
                     f"{len(rep.differences)} differ")
    return lines


def _cell(value) -> str:
    return "-" if value is None or value != value else str(value)


def reproduce_command(benchmark_path, *, out_dir=None) -> tuple[list[str], bool]:
    """Reproduce a benchmark; optionally write its tables; return the report and the verdict."""
    bench = load_benchmark(benchmark_path)
    rep = reproduce(bench)
    if out_dir is not None:
        write_csv(rep.rows, Path(out_dir) / "reproduce__rows.csv")
        write_csv(rep.summary, Path(out_dir) / "reproduce__summary.csv")
    return render_reproduction(rep), rep.agrees
