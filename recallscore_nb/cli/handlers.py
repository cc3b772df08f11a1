"""What each command of the command line does, as one call: load, compute, write, report.

One handler per command (``validate``, ``score``, ``report``, ``check-report``, ``signature``,
``reproduce``, ``perturb``, ``squad``, ``summarize``, ``convert``, ``agree``, ``probe``, ``run``,
``check``, ``explore``): each
reads and writes files through ``io`` and returns the lines to print (and, where the exit code
depends on it, whether the comparison matched); :mod:`recallscore_nb.cli.main` only parses
arguments, makes the one call and prints.
"""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

from ..analysis.reproduce import Reproduction, reproduce
from ..core.csvtext import csv_text
from ..core.errors import AttemptsFormatError, InputFileError, UsageError
from ..core.registry import signatures
from ..execution.api import load_items
from ..execution.memory import paused_collector
from ..execution.scorers import load_scorer
from ..execution.streaming import score_file
from ..io.attempts import read_attempts
from ..io.benchmarks import load_benchmark
from ..io.files import read_input, refuse_output_among_inputs, sha256, write_file
from ..io.items import scorer_role
from ..io.output_sets import OutputSet, file_set, write_one
from ..io.scored import write_scored
from .validating import validate_command

__all__ = ["validate_command", "signature_command", "score_command", "score_dask_command",
           "report_command", "check_report_command", "reproduce_command", "render_reproduction",
           "summarize_command", "squad_command", "perturb_command", "run_command", "check_command",
           "explore_command", "probe_command", "PROBE_OUTPUTS", "agree_command", "convert_command"]


def signature_command(squad_mode: str = "v1.1") -> list[str]:
    """The rules' signatures, then those of the normalizers they name, one a line, to cite in
    a paper."""
    return signatures(squad_mode)


def score_command(scorer_path, attempts_path, out, *, squad_mode: str = "v1.1",
                  schema_path=None, progress=None, rules=None) -> list[str]:
    """Score a benchmark's rows or an attempts file; write the table; return the signatures.

    ``scorer_path`` is a benchmark (None: the shipped one) or an items file (``.jsonl``: each
    attempt against its own item). With ``schema_path``, a scoring schema adds each fact's
    status, the weighted score and the basis of each status, and its signature follows the
    rules'. ``rules`` (names, comma-separated) scores with those rules only: the table holds
    their columns, the signatures are theirs. ``out`` may not be one of the inputs.
    """
    refuse_output_among_inputs(out, {scorer_role(scorer_path): scorer_path,
                                     "attempts": attempts_path, "schema": schema_path})
    with (nullcontext() if out is None else file_set(out, protected=_protected())) as outputs:
        scorer = load_scorer(scorer_path, squad_mode=squad_mode, schema_path=schema_path,
                             rules=rules)
        score_file(scorer, attempts_path, outputs and outputs.path(outputs.members[0]),
                   progress=progress)
    return scorer.signatures


def report_command(benchmark_path, attempts_path, schema_path, out, *,
                   squad_mode: str = "v1.1"):
    """Write the scored report (or an error report) to ``out``; return the line to print and
    the error to show (None when every input was valid).

    ``schema_path`` None is the shipped scoring schema, for the shipped benchmark only (any
    other benchmark needs its own). An error report goes beside ``out`` as
    ``<stem>.error.json`` when ``out`` exists. ``out`` may not be one of the inputs.
    """
    from ..io.data import DEFAULT_BENCHMARK
    from ..execution.reports import build_report
    from ..io.reports import write_report

    suffix = Path(out).suffix.lower()
    if suffix != ".json":
        raise UsageError(f"{out}: --out must end in .json (got {suffix or 'no extension'!r})")
    if schema_path is None:
        schema_path = _default_schema(benchmark_path)
    refuse_output_among_inputs(out, {
        "benchmark": DEFAULT_BENCHMARK if benchmark_path is None else benchmark_path,
        "attempts": attempts_path, "schema": schema_path})
    with paused_collector():
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
    from ..execution.reports import check_report

    with paused_collector():
        found = check_report(report_path, update=update, inputs_within=inputs_within)
    n = len(found)
    values = f"{n} value{'s' if n != 1 else ''}"
    if update:
        return found + [f"rewrote {report_path} from its inputs ({values} changed)"], True
    if found:
        return found + [f"DIFFERENT: {values} of {report_path} differ from a fresh scoring of "
                        "its inputs (rewrite it with --update)"], False
    return [f"OK: {report_path} matches a fresh scoring of its inputs"], True


def score_dask_command(scorer_path, attempts_glob, out, *, squad_mode="v1.1", scheduler=None,
                       schema_path=None, progress=True) -> list[str]:
    """Score a partitioned Parquet dataset with Dask; write one table; return the signatures."""
    from ..execution.dask_engine import score_with_dask

    if schema_path is not None:
        raise UsageError("--schema is not supported with --engine dask; score with the "
                         "pandas engine, or add statuses afterwards with 'recallscore report'")
    if attempts_glob is None:
        raise UsageError("--engine dask needs --attempts: Parquet files, e.g. 'dir/*.parquet'")
    refuse_output_among_inputs(out, {scorer_role(scorer_path): scorer_path})
    scorer = load_scorer(scorer_path, squad_mode=squad_mode)
    scores = score_with_dask(scorer.source, attempts_glob, scheduler=scheduler,
                             squad_mode=squad_mode, progress=progress)
    write_scored(scores, out, metadata=scorer.metadata)
    return scorer.signatures


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
        with OutputSet(out_dir, ["reproduce__rows.csv", "reproduce__summary.csv"],
                       protected=_protected()) as outputs:
            outputs.write_text("reproduce__rows.csv", csv_text(rep.rows))
            outputs.write_text("reproduce__summary.csv", csv_text(rep.summary))
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

    ``seed`` and ``resamples`` default to :data:`~recallscore_nb.analysis.bootstrap.DEFAULT_SEED`
    and :data:`~recallscore_nb.analysis.bootstrap.DEFAULT_RESAMPLES`.
    """
    from ..analysis.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED
    from ..analysis.rule_values import resolve_rules
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
    paired_out = _paired_path(out)
    with file_set(out, companions=[paired_out.name]) as outputs:
        outputs.write_text(outputs.members[0], write(table, footer))
        lines = [f"wrote {out} ({len(table)} rows)"]
        if pairs is not None:
            shown = pairs[PAIRED_COLUMNS] if out.suffix.lower() == ".csv" else paired_shown(pairs)
            outputs.write_text(paired_out.name, write(shown, paired_footer(pairs)))
            lines.append(f"wrote {paired_out} ({len(pairs)} rows)")
    if pairs is not None:
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
        write_one(out_file, json.dumps(dict(result)), option="--out-file")
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
    write_one(out, text, check=check)
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
    print and whether every file matched. Files of ``reports/`` that differ from the last
    commit are named too: the comparison was against them as they are now."""
    from ..workbook.committed import changed_since_commit
    from ..workbook.paths import REPO_ROOT
    from ..workbook.runner import check_workbook

    problems = check_workbook(update=update, jobs=jobs, progress=progress,
                              accept_defaults=accept_defaults)
    lines = list(problems)
    if update:
        lines.append("reports/ rewritten from a fresh run")
    elif not problems:
        lines.append("reports/ matches a fresh run byte for byte")
    changed = changed_since_commit(REPO_ROOT, "reports")
    if changed:
        lines += [f"  {line}" for line in changed]
        lines.append(f"note: {len(changed)} file(s) of reports/ differ from the last commit "
                     "(git status), listed above: the comparison was against reports/ as it is "
                     "now; commit them, or restore them with git checkout -- reports/")
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
    """Convert a public set of human judgments (a converter of
    :data:`~recallscore_nb.io.converters.CONVERTERS`) into ``items.jsonl``,
    ``attempts.parquet`` and ``judgments.csv`` in ``out_dir``."""
    from ..io.converters import CONVERTED, convert

    lines = convert(kind, source, out_dir, protected=_protected())
    return lines + [f"wrote {', '.join(str(Path(out_dir) / name) for name in CONVERTED)}"]


def agree_command(items_path, attempts_path, judgments_path, out_dir, *,
                  reference_judge: str = "human", annotators=None, protocol: str = "direct",
                  seed: int = 0, resamples: int = 2000, f1_threshold: float = 0.5) -> list[str]:
    """Rules against judges: write ``systems.csv``, ``agreement.csv``, ``ranking.csv``,
    ``annotators.csv`` (with ``annotators``) and ``disagreements.csv`` into ``out_dir``, as
    one set (:class:`~recallscore_nb.io.output_sets.OutputSet`): the tables an earlier run
    wrote and this one does not are removed once the new ones are in place."""
    from ..analysis.meta_evaluation import MetaEvaluation, meta_evaluate
    from ..io.judgments import load_judgments

    inputs = {"items": items_path, "attempts": attempts_path, "judgments": judgments_path}
    with OutputSet(out_dir, [f"{stem}.csv" for stem in MetaEvaluation.TABLES], inputs=inputs,
                   protected=_protected()) as outputs:
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
                               annotators=[a for a in names if a], protocol=protocol,
                               seed=seed, resamples=resamples, f1_threshold=f1_threshold)
        written = [str(outputs.write_text(f"{stem}.csv", csv_text(table)))
                   for stem, table in result.tables().items()]
    counts = result.counts
    lines = [result.signature, result.bootstrap, *result.rule_signatures,
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


PROBE_OUTPUTS = ("gaming_shares.csv", "gaming_examples.csv", "gaming_answers.csv",
                 "gaming_probe.json")
"""What ``recallscore probe`` writes into its ``--out-dir``, as one set."""


def _names(option: str, text) -> list[str] | None:
    """A comma-separated option as a list of names (None: not given)."""
    if text is None:
        return None
    names = [n.strip() for n in str(text).split(",")]
    if not all(names):
        raise UsageError(f"{option} {text!r}: expected names separated by commas")
    return names


def probe_command(items_path, out_dir, *, rules=None, seed: int = 0, per_item: int = 1,
                  families=None, f1_threshold: float = 0.5) -> list[str]:
    """The gaming audit of an items file (:func:`~recallscore_nb.analysis.gaming_audit.
    gaming_audit`): write :data:`PROBE_OUTPUTS` into ``out_dir`` as one set; return the
    share table (percent accepted per rule and family) and what was written. ``rules`` and
    ``families``: names separated by commas (default: all)."""
    import json

    from ..analysis.gaming_audit import gaming_audit
    from ..io.items import load_questions

    rule_names, family_names = _names("--rules", rules), _names("--families", families)
    with OutputSet(out_dir, PROBE_OUTPUTS, inputs={"items": items_path},
                   protected=_protected()) as outputs:
        items = load_items(items_path)
        questions = load_questions(items_path) or None
        audit = gaming_audit(items, rules=rule_names, seed=seed, per_item=per_item,
                             families=family_names, questions=questions,
                             f1_threshold=f1_threshold)
        outputs.write_text("gaming_shares.csv", csv_text(audit.shares))
        outputs.write_text("gaming_examples.csv", csv_text(audit.examples))
        outputs.write_text("gaming_answers.csv", csv_text(audit.answers))
        document = {"items": Path(items.path).name, "items_sha256": items.sha256,
                    "seed": audit.seed, "per_item": audit.per_item,
                    "f1_threshold": audit.f1_threshold,
                    "families": list(dict.fromkeys(audit.answers["family"])),
                    "answers": len(audit.answers), "signatures": audit.signatures,
                    "normalizer_signatures": audit.normalizer_signatures,
                    "skipped": audit.skipped}
        outputs.write_text("gaming_probe.json", json.dumps(document, indent=2,
                                                           ensure_ascii=False) + "\n")
    table = audit.share_table()
    shown = table.map(lambda x: f"{x:.1f}")
    shown.loc["n"] = table.loc["n"].map(lambda x: f"{x:.0f}")
    shown.index.name, shown.columns.name = None, None
    lines = [f"{items_path}: {len(items)} items, {len(audit.answers)} gaming answers "
             f"(seed {audit.seed}); % accepted (95% Wilson intervals in gaming_shares.csv):",
             *shown.to_string().split("\n")]
    lines += [f"skipped {note}" for note in audit.skipped]
    return lines + [f"wrote {', '.join(str(Path(out_dir) / n) for n in PROBE_OUTPUTS)}"]


def _protected() -> dict:
    """The folders no command may write into: the workbook's notebooks (when there is a
    workbook)."""
    from ..workbook.paths import NOTEBOOKS_DIR

    return {"the workbook's notebooks": NOTEBOOKS_DIR}
