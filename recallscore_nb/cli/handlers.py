"""What each command of the command line does, as one call: load, compute, write, report.

One handler per command (``validate``, ``score``, ``report``, ``check-report``, ``signature``,
``reproduce``, ``perturb``, ``squad``, ``summarize``, ``run``, ``check``, ``explore``): each
reads and writes files through ``io`` and returns the lines to print (and, where the exit code
depends on it, whether the comparison matched); :mod:`recallscore_nb.cli.main` only parses
arguments, makes the one call and prints.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..analysis.reproduce import Reproduction, reproduce
from ..core.csvtext import csv_text
from ..core.errors import AttemptsFormatError, InputFileError, UsageError
from ..core.rules import rules_for
from ..core.scoring import (ScoreMemo, join_scores, output_columns, score_attempts_frame,
                            score_benchmark, score_items)
from ..io.attempts import read_attempts
from ..io.benchmarks import load_benchmark
from ..io.files import read_input, refuse_output_among_inputs, sha256, write_file
from ..io.items import load_items
from ..io.scored import write_scored

__all__ = ["validate_command", "signature_command", "score_command", "score_items_command",
           "score_dask_command", "report_command", "check_report_command", "reproduce_command",
           "render_reproduction", "summarize_command", "squad_command", "perturb_command",
           "run_command", "check_command", "explore_command"]


def validate_command(benchmark_path) -> list[str]:
    """Validate a benchmark file; the line to print (its rows, facts and hash)."""
    bench = load_benchmark(benchmark_path)
    shown = benchmark_path or "shipped benchmark " + Path(bench.path).name
    return [f"{shown}: valid benchmark: {len(bench.rows)} rows, {len(bench.facts)} facts, "
            f"sha256 {bench.sha256[:12]}"]


def signature_command(squad_mode: str = "v1.1") -> list[str]:
    """The rules' signatures, one a line, to cite in a paper."""
    return [rule.signature() for rule in rules_for(squad_mode)]


def score_command(benchmark_path, attempts_path, out, *, squad_mode: str = "v1.1",
                  schema_path=None, progress=None) -> list[str]:
    """Score a benchmark's rows or an attempts file; write the table; return the signatures.

    With ``schema_path``, a scoring schema adds ``status_<fact>``, ``weighted_score`` and
    ``basis_<fact>`` (compact JSON text), and its signature follows the rules'. A ``.jsonl``
    first argument is an items file: each attempt is scored against its own item. ``out``
    may not be one of the inputs.
    """
    items_mode = benchmark_path is not None and str(benchmark_path).endswith(".jsonl")
    refuse_output_among_inputs(out, {"items" if items_mode else "benchmark": benchmark_path,
                                     "attempts": attempts_path, "schema": schema_path})
    if items_mode:
        return score_items_command(benchmark_path, attempts_path, out, squad_mode=squad_mode,
                                   progress=progress, schema_path=schema_path)
    bench = load_benchmark(benchmark_path)
    schema = None
    if schema_path is not None:
        from ..io.scoring_schemas import load_scoring_schema

        schema = load_scoring_schema(schema_path, bench)
    outputs = output_columns(bench)
    if schema is not None:
        from ..core.status import status_columns

        outputs += status_columns(bench)
    signatures = [rule.signature() for rule in rules_for(squad_mode)]
    metadata = {"version": __version__, "signatures": signatures,
                "benchmark_sha256": bench.sha256}
    if schema is not None:
        signatures.append(schema.signature())
        metadata["schema_sha256"] = schema.sha256
    if _streamable(attempts_path):
        memo = ScoreMemo()  # each scoring child keeps its own, empty when forked

        def score(frame):  # a chunk as AttemptChunks checked it
            scores = score_attempts_frame(bench, frame, squad_mode=squad_mode, memo=memo)
            if schema is not None:
                from ..io.scored import status_frame

                scores = pd.concat([scores, status_frame(scores["attempt"], bench, schema)],
                                   axis=1)
            return scores

        def check(frame, first):
            found = sorted(set(frame.columns[2:]) & set(outputs)) if first else None
            return found and (lambda: AttemptsFormatError(
                attempts_path, "", found[0],
                message=f"column {found[0]!r} collides with an output column; rename it"))

        def added(sent):  # in a scoring child: the columns scoring adds, no more
            return score(sent).iloc[:, 2:]

        lean = (lambda frame: frame[["id", "attempt"]], added, join_scores)
        if _score_streaming(attempts_path, out, score, check, metadata, progress, lean=lean):
            return signatures
    attempts = None
    if attempts_path is not None:
        attempts = _read_attempts_or_dataset(attempts_path)
        clash = sorted(set(attempts.columns[2:]) & set(outputs))
        if clash:
            raise AttemptsFormatError(
                attempts_path, "", clash[0],
                message=f"column {clash[0]!r} collides with an output column; rename it",
            )
    scores = score_benchmark(bench, attempts, squad_mode=squad_mode, progress=progress)
    if schema is not None:
        from ..io.scored import status_frame

        scores = pd.concat([scores, status_frame(scores["attempt"], bench, schema)], axis=1)
    write_scored(scores, out, metadata=metadata)
    return signatures


def _streamable(attempts_path) -> bool:
    """Whether the attempts are one file, read in chunks (not standard input, a dataset)."""
    return attempts_path is not None and attempts_path != "-" and not (
        os.path.isdir(attempts_path) or any(ch in str(attempts_path) for ch in "*?["))


PROCESSES = 2
"""Processes that score chunks while this one reads and writes (the machine's two cores;
1: this process scores them itself)."""
CHILD_AHEAD = 2
"""Chunks each scoring child may have in hand (one it scores, one waiting) before this
process waits for the oldest result. Measured on 4x10^6 attempts, the machine shared with
another job: 7.8-8.3 s whether 1, 2 or 3, with peak RSS 492, 554 and 614 MiB. Two children
scoring every chunk against one child and this process scoring when the child was full:
7.8-8.3 s against 8.0-8.1 s, 582-591 MiB against 688-715 MiB; against 100,000 items (10^6
attempts), 675 MiB against 894 MiB at this process's peak, as it then lets the prepared
items go."""
ITEM_CHUNK_ROWS = 65_536
"""Rows per chunk against an items file (half the default: scoring a chunk against 100,000
items takes more memory; measured at 10^6 attempts, 723 MiB at the peak against 804, in the
same time; at 2x10^7 attempts, 32,768 rows took 956 MiB against 984 but 132 s against 100)."""


def _lean_arrow_memory() -> None:
    """Arrow allocates through jemalloc, which gives freed memory back at once, when this
    build of Arrow has it: measured on 4x10^6 attempts scored in chunks, the peak RSS is 610
    MiB with it, 780 MiB with mimalloc (Arrow's default) and 755 MiB with the system's
    allocator, whose freed pages stay with the process."""
    import pyarrow as pa

    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
        pa.jemalloc_set_decay_ms(0)
    except (NotImplementedError, pa.ArrowNotImplementedError):
        pass


def _score_streaming(attempts_path, out, score, check, metadata, progress, *,
                     rows: int | None = None, lean=None, release=None) -> bool:
    """Score an attempts file a chunk at a time and write the table as it is scored (the
    bytes of the whole-table path). ``score(frame)`` scores a chunk. ``check(frame, first)``
    is called on every chunk: a function giving the fault to report once the whole file is
    read (as when it is read whole, the file's own faults first), or None; no chunk is scored
    after one.

    With :data:`PROCESSES` 2, two children forked at the start
    (:class:`~recallscore_nb.core.processes.ForkedWorker`) score every chunk while this
    process reads, checks and writes (``release()``, when given, is called once they are
    forked: what only scoring needs may go from this process). ``lean``, when given, is
    ``(send, added, join)``: a child is sent ``send(frame)`` only, computes ``added(sent)``
    (the columns scoring adds) and this process makes the table with ``join(frame, added)``,
    instead of the whole chunk going there and back (measured: pickling 21 ms instead of
    35 ms a round trip of 131,072 rows). With one process, or without ``os.fork``, this process
    scores every chunk. False when the file must be read whole (:class:`_Unstreamable`);
    nothing is written then."""
    from ..core.processes import ForkedWorker
    from ..io.attempts import AttemptChunks, _Unstreamable
    from ..io.scored import write_scored_chunks

    _lean_arrow_memory()
    chunks = AttemptChunks(attempts_path, rows=rows)

    done = 0

    def ready(queue):
        """The finished results at the head of ``queue``, in order, each counted done."""
        nonlocal done
        while queue and queue[0][0] is None:
            result = queue.pop(0)[1]
            done += len(result)
            yield result
            if progress is not None:
                progress(done, max(chunks.total_rows or 0, done))

    def take(queue) -> None:
        """The oldest chunk's result from the child scoring it (waiting for it)."""
        worker, frame = queue[0]
        queue[0] = (None, join(frame, worker.result()))
        in_hand[worker] -= 1

    def scored():
        # queue: (child, chunk) for a chunk a child scores, (None, result) once scored; the
        # results are written in order, each once it and those before it are back
        fault, first, queue = None, True, []
        for frame in chunks:
            fault = check(frame, first) or fault
            first = False
            if fault is not None:
                continue
            if in_hand:
                while all(n >= CHILD_AHEAD for n in in_hand.values()):
                    take(queue)  # every child has its fill: wait for the oldest
                    yield from ready(queue)
                worker = min(in_hand, key=in_hand.get)  # the least busy child
                worker.submit(send(frame))
                in_hand[worker] += 1
                queue.append((worker, frame))
            else:
                queue.append((None, score(frame)))
            while queue and queue[0][0] is not None and queue[0][0].ready():
                take(queue)
                yield from ready(queue)
            yield from ready(queue)
        if fault is not None:
            raise fault()
        while queue:
            take(queue)
            yield from ready(queue)

    send, added, join = lean or (lambda frame: frame, score, lambda frame, table: table)
    # the children are forked now, before this process holds chunks, output or ids
    forking = PROCESSES > 1 and hasattr(os, "fork")
    in_hand = {ForkedWorker(added): 0 for _ in range(PROCESSES if forking else 0)}
    if in_hand and release is not None:
        release()
    try:
        write_scored_chunks(scored(), out, metadata=metadata)
    except _Unstreamable:
        return False
    finally:
        for worker in in_hand:
            worker.close()
    return True


def report_command(benchmark_path, attempts_path, schema_path, out, *,
                   squad_mode: str = "v1.1"):
    """Write the scored report (or an error report) to ``out``; return the line to print and
    the error to show (None when every input was valid).

    ``schema_path`` None is the shipped scoring schema, for the shipped benchmark only (any
    other benchmark needs its own). An error report goes beside ``out`` as
    ``<stem>.error.json`` when ``out`` exists. ``out`` may not be one of the inputs.
    """
    from ..io.data import DEFAULT_BENCHMARK
    from ..io.reports import build_report, write_report

    suffix = Path(out).suffix.lower()
    if suffix != ".json":
        raise UsageError(f"{out}: --out must end in .json (got {suffix or 'no extension'!r})")
    if schema_path is None:
        schema_path = _default_schema(benchmark_path)
    refuse_output_among_inputs(out, {
        "benchmark": DEFAULT_BENCHMARK if benchmark_path is None else benchmark_path,
        "attempts": attempts_path, "schema": schema_path})
    report = build_report(benchmark_path, attempts_path, schema_path=schema_path,
                          base_dir=Path(out).parent, squad_mode=squad_mode)
    path = write_report(report, out)
    return [_report_summary(path, report.document)], report.error


def _default_schema(benchmark_path):
    """The shipped scoring schema when ``benchmark_path`` is the shipped benchmark (None, or
    that same file by any name); otherwise a :class:`UsageError` asking for ``--schema``."""
    from ..io.data import DEFAULT_BENCHMARK
    from ..io.data import DEFAULT_SCHEMA_PATH

    if benchmark_path is not None:
        try:
            shipped = os.path.samefile(benchmark_path, DEFAULT_BENCHMARK)
        except OSError:
            shipped = False
        if not shipped:
            raise UsageError(f"--schema is required for {benchmark_path}: only the shipped "
                             "benchmark has a default scoring schema (the one shipped beside it)")
    return DEFAULT_SCHEMA_PATH


def _report_summary(path, document) -> str:
    if document["status"] == "error":
        n = len(document["errors"])
        return f"wrote error report {path}: {n} error{'s' if n != 1 else ''}, no score"
    totals = document["totals"]
    mean = totals["mean_weighted_score"]
    shown = "n/a" if mean is None else f"{mean:.4f}"
    return f"wrote {path}: {totals['count']} attempts, mean weighted score {shown}"


def check_report_command(report_path, *, update: bool = False,
                         inputs_within=None) -> tuple[list[str], bool]:
    """Recompute a stored report; return the lines to print and whether it matched.

    The report's inputs are read only inside its folder, or inside ``inputs_within``."""
    from ..io.reports import check_report

    found = check_report(report_path, update=update, inputs_within=inputs_within)
    n = len(found)
    values = f"{n} value{'s' if n != 1 else ''}"
    if update:
        return found + [f"rewrote {report_path} from its inputs ({values} changed)"], True
    if found:
        return found + [f"DIFFERENT: {values} of {report_path} differ from a fresh scoring of "
                        "its inputs (rewrite it with --update)"], False
    return [f"OK: {report_path} matches a fresh scoring of its inputs"], True


def score_items_command(items_path, attempts_path, out, *, squad_mode: str = "v1.1",
                        progress=None, schema_path=None) -> list[str]:
    """Score an attempts file against an items file; write the table; return the signatures.

    With ``schema_path`` (a scoring schema with ``items``), each attempt also gets its fact
    statuses and weighted score against its own item (:func:`_with_item_statuses`, a chunk
    at a time when streaming), and the schema's signature follows the rules'."""
    refuse_output_among_inputs(out, {"items": items_path, "attempts": attempts_path})
    items = load_items(items_path)
    if attempts_path is None:
        raise UsageError("scoring an items file needs --attempts (with 'item' and 'attempt' columns)")
    signatures = [rule.signature() for rule in rules_for(squad_mode)]
    metadata = {"version": __version__, "signatures": signatures, "items_sha256": items.sha256}
    schema = None
    if schema_path is not None:
        from ..io.scoring_schemas import load_scoring_schema

        schema = load_scoring_schema(schema_path, items)
        signatures.append(schema.signature())
        metadata["schema_sha256"] = schema.sha256
    if _streamable(attempts_path):
        from ..core.rules import output_columns as rule_columns
        from ..core.scoring import prepare_items, unknown_items, unknown_items_text

        prepared = prepare_items(items)
        if schema is None:  # scoring reads the prepared tables only: let the items go
            items = dataclasses.replace(items, items=())
        outputs = set(rule_columns(None))
        unknown: dict[str, None] = {}
        column_fault: list[AttemptsFormatError] = []

        def check(frame, first):
            if first and "item" not in frame.columns:
                column_fault.append(AttemptsFormatError(
                    attempts_path, "", "item",
                    message="missing column 'item' (scoring against an items file)"))
            if "item" in frame.columns:
                unknown.update(dict.fromkeys(unknown_items(prepared, frame["item"])))
            clash = sorted(set(frame.columns) - {"id", "item", "attempt"} & outputs)
            if not (column_fault or unknown or clash):
                return None

            def fault():
                if column_fault:
                    return column_fault[0]
                if unknown:
                    return AttemptsFormatError(attempts_path, "", "item",
                                               message=unknown_items_text(list(unknown)))
                return AttemptsFormatError(attempts_path, "", "item", message=(
                    f"carried column(s) {', '.join(clash)} collide with output columns"))
            return fault

        def score(frame):
            scores = score_items(items, frame, squad_mode=squad_mode, prepared=prepared)
            return _with_item_statuses(scores, items, schema, attempts_path)

        def release():  # the children score: this process checks item ids, no more
            nonlocal prepared
            prepared = dataclasses.replace(prepared, references=None, checklists=None)

        if _score_streaming(attempts_path, out, score, check, metadata, progress,
                            rows=ITEM_CHUNK_ROWS, release=release):
            return signatures
    attempts = _read_attempts_or_dataset(attempts_path)
    if "item" not in attempts.columns:
        raise AttemptsFormatError(attempts_path, "", "item",
                                  message="missing column 'item' (scoring against an items file)")
    try:
        scores = score_items(items, attempts, squad_mode=squad_mode, progress=progress)
    except UsageError as error:
        raise AttemptsFormatError(attempts_path, "", "item", message=str(error)) from None
    write_scored(_with_item_statuses(scores, items, schema, attempts_path), out,
                 metadata=metadata)
    return signatures


def _with_item_statuses(scores, items, schema, attempts_path):
    """``scores`` (an items file's, or a chunk of them) with each attempt's fact statuses,
    weighted score and bases against its own item appended (nothing without a schema)."""
    if schema is None:
        return scores
    from ..core.status import item_status_columns
    from ..io.scored import item_status_frame

    clash = sorted(set(scores.columns) & set(item_status_columns(items)))
    if clash:
        raise AttemptsFormatError(attempts_path, "", clash[0], message=(
            f"column {clash[0]!r} collides with an output column; rename it"))
    statuses = item_status_frame(scores["attempt"], scores["item"], items, schema)
    return pd.concat([scores, statuses.set_axis(scores.index)], axis=1)


def score_dask_command(scorer_path, attempts_glob, out, *, squad_mode="v1.1", scheduler=None,
                       schema_path=None, progress=True) -> list[str]:
    """Score a partitioned Parquet dataset with Dask; write one table; return the signatures."""
    from ..io.dask_engine import score_with_dask

    if schema_path is not None:
        raise UsageError("--schema is not supported with --engine dask; score with the "
                         "pandas engine, or add statuses afterwards with 'recallscore report'")
    if attempts_glob is None:
        raise UsageError("--engine dask needs --attempts: Parquet files, e.g. 'dir/*.parquet'")
    items_mode = scorer_path is not None and str(scorer_path).endswith(".jsonl")
    refuse_output_among_inputs(out, {"items" if items_mode else "benchmark": scorer_path})
    scorer = load_items(scorer_path) if items_mode else load_benchmark(scorer_path)
    scores = score_with_dask(scorer, attempts_glob, scheduler=scheduler, squad_mode=squad_mode,
                             progress=progress)
    signatures = [rule.signature() for rule in rules_for(squad_mode)]
    key = "items_sha256" if items_mode else "benchmark_sha256"
    write_scored(scores, out, metadata={"version": __version__, "signatures": signatures,
                                       key: scorer.sha256})
    return signatures


def _read_attempts_or_dataset(path):
    """An attempts file, or a partitioned Parquet dataset (a folder or a glob) read in sorted
    file order with global row numbers as default ids, as the Dask engine reads it."""
    if path != "-" and (os.path.isdir(path) or any(ch in str(path) for ch in "*?[")):
        from ..io.dask_engine import attempt_files, read_attempt_files

        return read_attempt_files(attempt_files(path))
    return read_attempts(path)


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
        write_file(Path(out_dir) / "reproduce__rows.csv", csv_text(rep.rows))
        write_file(Path(out_dir) / "reproduce__summary.csv", csv_text(rep.summary))
    return render_reproduction(rep), rep.agrees


# --- summarize --------------------------------------------------------------------------------
SUMMARY_FORMATS = (".csv", ".md", ".tex")
"""What ``summarize --out`` writes, by extension."""


def summarize_command(scored_path, by: str = "system", rules=None, paired=None, out=None,
                      seed: int | None = None, resamples: int | None = None, *,
                      confidence: float = 0.95) -> list[str]:
    """Summarize a scored file; return the lines to print.

    Without ``out``: the per-system table (and, with ``paired=(A, B)``, the paired table) as
    Markdown, each followed by its notes (input file and hash, signatures, exclusions,
    saturation). With ``out``: the system table is written as CSV, Markdown or LaTeX by the
    extension of ``out`` (Markdown and LaTeX carry the notes; CSV has none, so that
    ``read_csv`` reads it back), the paired table beside it as ``<stem>.paired<ext>``; the
    lines say what was written and give the signatures.

    ``seed`` and ``resamples`` default to :data:`~recallscore_nb.analysis.stats.DEFAULT_SEED` and
    :data:`~recallscore_nb.analysis.stats.DEFAULT_RESAMPLES`.
    """
    from ..analysis.stats import DEFAULT_RESAMPLES, DEFAULT_SEED, resolve_rules
    from ..analysis.summary import (
        PAIRED_COLUMNS,
        check_resamples,
        paired_footer,
        paired_shown,
        read_scored,
        summary_footer,
        summary_tables,
    )
    from ..render.tables import latex_text, markdown_text

    seed = DEFAULT_SEED if seed is None else seed
    resamples = DEFAULT_RESAMPLES if resamples is None else resamples
    check_resamples(resamples)
    names = resolve_rules(rules or None)
    if out is not None and Path(str(out)).suffix.lower() not in SUMMARY_FORMATS:
        raise UsageError(f"--out must end in {', '.join(SUMMARY_FORMATS)} "
                         f"(got {Path(str(out)).suffix or 'no extension'!r})")
    path = str(scored_path)
    if out is not None:
        refuse_output_among_inputs(out, {"scored": path})
        if paired is not None:
            refuse_output_among_inputs(_paired_path(Path(str(out))), {"scored": path})
    frame = read_scored(path, by=by, rules=names)
    if frame.empty:
        raise InputFileError(path, message="no scored rows to summarize")
    if paired is not None:
        paired = tuple(str(s) for s in paired)
        known = sorted(frame[by].unique())
        for system in paired:
            if system not in known:
                raise UsageError(f"--paired: no {by} {system!r} in {path} "
                                 f"({by}: {', '.join(known)})")
    table, verdicts, pairs = summary_tables(frame, by=by, rules=names, paired=paired,
                                            resamples=resamples, seed=seed,
                                            confidence=confidence)
    digest = sha256(read_input(path, InputFileError))
    footer = summary_footer(path, digest, len(frame), table, verdicts)
    if out is None:
        lines = [f"{by} means per rule, {confidence:.0%} percentile bootstrap interval", ""]
        lines += markdown_text(table, footer).rstrip("\n").split("\n")
        if pairs is not None:
            lines += ["", f"paired comparison of {paired[0]} and {paired[1]}", ""]
            text = markdown_text(paired_shown(pairs), paired_footer(pairs))
            lines += text.rstrip("\n").split("\n")
        return lines
    out = Path(str(out))
    writers = {".csv": lambda f, notes: csv_text(f), ".md": markdown_text, ".tex": latex_text}
    write = writers[out.suffix.lower()]
    write_file(out, write(table, footer))
    lines = [f"wrote {out} ({len(table)} rows)"]
    if pairs is not None:
        paired_out = _paired_path(out)
        shown = pairs[PAIRED_COLUMNS] if out.suffix.lower() == ".csv" else paired_shown(pairs)
        write_file(paired_out, write(shown, paired_footer(pairs)))
        lines.append(f"wrote {paired_out} ({len(pairs)} rows)")
        return lines + list(dict.fromkeys(footer + paired_footer(pairs)))
    return lines + footer


def _paired_path(out: Path) -> Path:
    """Where the paired table goes beside ``out``: ``<stem>.paired<ext>``."""
    return out.with_name(f"{out.stem}.paired{out.suffix}")


# --- squad ------------------------------------------------------------------------------------
def squad_command(
    dataset_path: str, predictions_path: str, mode: str = "v1.1", *, na_prob_file=None,
    na_prob_thresh: float = 1.0, out_file=None,
) -> tuple[str, list[str]]:
    """``recallscore squad``: (the JSON text for stdout, the lines for stderr).

    The CLI prints the lines on stderr, then the JSON text on stdout, and exits 0; an
    :class:`InputFileError` or :class:`UsageError` is the usual one-line error and exit 2.
    ``na_prob_file`` and ``na_prob_thresh`` are the v2.0 script's options; with ``out_file``
    the JSON is written there as the script writes it (``json.dump``, no indent), atomically,
    and nothing is printed on stdout.
    """
    import json

    from ..analysis.squad_eval import check_mode, evaluate_squad, format_result
    from ..io.squad_files import read_na_probs, read_predictions, read_squad_dataset

    check_mode(mode)
    if out_file is not None:
        refuse_output_among_inputs(out_file, {"dataset": dataset_path,
                                              "predictions": predictions_path,
                                              "na-prob-file": na_prob_file})
    dataset = read_squad_dataset(dataset_path)
    predictions = read_predictions(predictions_path)
    na_probs = None if na_prob_file is None else read_na_probs(na_prob_file)
    result, messages = evaluate_squad(dataset, predictions, mode=mode, na_probs=na_probs,
                                      na_prob_thresh=na_prob_thresh)
    if out_file is not None:
        write_file(out_file, json.dumps(dict(result)))
        return "", messages
    return format_result(result, mode=mode), messages


# --- perturb ----------------------------------------------------------------------------------
def perturb_command(benchmark_path, out, seed: int = 0,
                    schema_path=None) -> tuple[str, list[str]]:
    """Draft a benchmark from ``benchmark_path``'s reference and write it to ``out`` (``-``:
    standard output).

    With ``schema_path``, the scoring schema's contradictions change facts and its
    equivalents paraphrase them. The labels come from each transformation, not from scoring;
    the draft must load as a benchmark before it replaces ``out`` (or is printed), and is
    then reproduced: every label the rules do not give is a line ``reproduce disagrees:
    <row> <label> …`` (a scorer bug, or a heuristic that did not do what it says). Returns
    (the text for stdout: the draft for ``-``, else empty; the lines for stderr: ``skipped
    <condition>: <reason>``, one per kind skipped, then any disagreement). ``out`` may be
    neither the benchmark nor the schema.
    """
    from ..analysis.perturb import dumps_benchmark, perturb_benchmark
    from ..io.data import DEFAULT_BENCHMARK

    refuse_output_among_inputs(out, {
        "benchmark": DEFAULT_BENCHMARK if benchmark_path is None else benchmark_path,
        "schema": schema_path})

    bench = load_benchmark(benchmark_path)
    contradictions, equivalents, schema = None, None, None
    if schema_path is not None:
        from ..io.scoring_schemas import load_scoring_schema

        schema = load_scoring_schema(schema_path, bench)
        contradictions = {name: [list(terms) for terms in rule.contradictions]
                          for name, rule in schema.facts.items() if rule.contradictions}
        equivalents = {name: [list(terms) for terms in rule.equivalents]
                       for name, rule in schema.facts.items() if rule.equivalents}
    document, skipped = perturb_benchmark(bench, seed=seed, contradictions=contradictions,
                                          equivalents=equivalents)
    if schema is not None:
        document["generatedBy"]["scoringSchema"] = {"file": Path(schema.path).name,
                                                    "sha256": schema.sha256}
    text = dumps_benchmark(document)

    lines = [f"skipped {condition}: {reason}" for condition, reason in skipped]

    def check(tmp: str) -> None:
        rep = reproduce(load_benchmark(tmp))
        lines.extend(f"reproduce disagrees: {d}" for d in rep.differences)

    if os.fspath(out) == "-":
        with tempfile.TemporaryDirectory() as folder:
            check(str(write_file(Path(folder) / "draft.json", text)))
        return text, lines
    write_file(out, text, check=check)
    return "", lines


# --- the workbook: run, check, explore -------------------------------------------------------
def run_command(notebooks, parameters, *, output_dir=None, jobs: int = 2, force: bool = False,
                progress: bool = False, accept_defaults: bool = False) -> list[str]:
    """Run the workbook's notebooks (``recallscore run``); the line saying what ran."""
    from ..workbook.runner import run_workbook

    result = run_workbook(notebooks, parameters, output_dir=output_dir, jobs=jobs, force=force,
                          progress=progress, accept_defaults=accept_defaults)
    return [f"ran {len(result.executed)} notebook(s), skipped {len(result.skipped)} unchanged; "
            f"outputs in {result.output_dir}"]


def check_command(*, update: bool = False, jobs: int = 2, progress: bool = False,
                  accept_defaults: bool = False) -> tuple[list[str], bool]:
    """Rerun the workbook and compare with ``reports/`` (``recallscore check``); the lines to
    print and whether every file matched."""
    from ..workbook.runner import check_workbook

    problems = check_workbook(update=update, jobs=jobs, progress=progress,
                              accept_defaults=accept_defaults)
    lines = list(problems)
    if update:
        lines.append("reports/ rewritten from a fresh run")
    elif not problems:
        lines.append("reports/ matches a fresh run byte for byte")
    return lines, not problems


def explore_command(notebook: str, *, force: bool = False) -> list[str]:
    """Copy a notebook into ``scratch/`` to explore (``recallscore explore``); the lines saying
    where it is and how to open it."""
    from ..workbook import runner

    done = runner.explore_notebook(notebook, force=force)
    root = runner.REPO_ROOT

    def shown(path: Path) -> str:
        return os.path.relpath(path, root).replace(os.sep, "/")

    if done.fresh:
        lines = [f"{shown(done.copy)}: a copy of {shown(done.notebook)} to explore; its outputs "
                 f"go to {shown(done.output_dir)}/ (git-ignored, like scratch/; reports/ stays "
                 "as it is)"]
    else:
        lines = [f"{shown(done.copy)} exists: kept your copy (--force replaces it with a fresh "
                 "one)"]
    jupyter = Path(sys.executable).with_name("jupyter")
    ours = jupyter.is_file() and str(jupyter).startswith(str(root))
    command = shown(jupyter) if ours else "jupyter"
    return lines + [f"open it from the repository root ({root}):",
                    f"  {command} lab {shown(done.copy)}"]


def convert_command(kind: str, source, out_dir) -> list[str]:
    """Convert a public set of human judgments (``openqa-eval`` folder or ``evouna`` file)
    into ``items.jsonl``, ``attempts.parquet`` and ``judgments.csv`` in ``out_dir``."""
    from ..io.converters import convert_evouna, convert_openqa_eval

    if kind == "openqa-eval":
        if not os.path.isdir(source):
            raise UsageError(f"{source}: not a folder; give the OpenQA-eval checkout (it holds "
                             "data/model_outputs/ and data/NQ301_*.tsv)")
        lines = convert_openqa_eval(source, out_dir)
    else:
        lines = convert_evouna(source, out_dir)
    return lines + [f"wrote {Path(out_dir) / 'items.jsonl'}, "
                    f"{Path(out_dir) / 'attempts.parquet'}, {Path(out_dir) / 'judgments.csv'}"]


def agree_command(items_path, attempts_path, judgments_path, out_dir, *,
                  reference_judge: str = "human", annotators=None, protocol: str = "direct",
                  seed: int = 0, resamples: int = 2000, f1_threshold: float = 0.5) -> list[str]:
    """Rules against judges: write ``systems.csv``, ``agreement.csv``, ``ranking.csv``,
    ``annotators.csv`` (with ``annotators``) and ``disagreements.csv`` into ``out_dir``."""
    from ..analysis.meta_evaluation import meta_evaluate
    from ..io.judgments import load_judgments

    items = load_items(items_path)
    attempts = read_attempts(attempts_path)
    for column in ("item", "system"):
        if column not in attempts.columns:
            raise AttemptsFormatError(str(attempts_path), "", column,
                                      message="missing column (judged attempts name their "
                                              "item and system)")
    judgments = load_judgments(judgments_path, items, attempts)
    names = [a.strip() for a in annotators.split(",")] if annotators else []
    result = meta_evaluate(items, attempts, judgments, reference_judge=reference_judge,
                           annotators=[a for a in names if a], protocol=protocol, seed=seed,
                           resamples=resamples, f1_threshold=f1_threshold)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out_dir}: not a folder; give a folder to write into")
    written = []
    for stem, table in result.tables().items():
        path = out / f"{stem}.csv"
        refuse_output_among_inputs(path, {"items": items_path, "attempts": attempts_path,
                                          "judgments": judgments_path})
        write_file(path, csv_text(table))
        written.append(str(path))
    counts = result.counts
    lines = [result.signature, result.bootstrap,
             f"{counts['judged']} of {counts['attempts']} attempts judged by "
             f"{reference_judge} ({counts['unjudged']} unjudged, not counted for the rules)"]
    for judge in judgments.judges:
        extra = []
        if counts["empty"].get(judge):
            extra.append(f"{counts['empty'][judge]} empty verdicts")
        if counts["unmatched"].get(judge):
            extra.append(f"{counts['unmatched'][judge]} verdicts on answers no system here gave")
        if extra:
            lines.append(f"judge {judge}: {', '.join(extra)}")
    return lines + [f"wrote {', '.join(written)}"]
