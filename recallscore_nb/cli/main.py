"""The ``recallscore`` command line: each command parses its arguments, then makes one call.

Exit codes, the same for every command: 0 success; 1 a comparison found a difference;
2 invalid input or usage (one line on stderr naming the file, row and field; no traceback);
3 the work itself failed: a notebook raised while the workbook ran, or recallscore met an
unexpected error (one line; the traceback goes to a log file whose path is printed); 130
Ctrl-C, 143 SIGTERM and 129 SIGHUP, nothing left half written (:mod:`.signals`).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Sequence

from .._version import __version__
from ..core import errors
from ..core.errors import NotebookFailed, PublishError, RecallScoreError, Terminated
from .signals import sigterm_raises

EXIT_OK, EXIT_DIFFERENT, EXIT_INVALID, EXIT_FAILED = 0, 1, 2, 3
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM
EXIT_HUNG_UP = 128 + 1  # SIGHUP's number (Windows has none)
"""Ctrl-C, SIGTERM and SIGHUP: 128 + the signal's number, as a shell reports them (130, 143,
129)."""


def exit_code(error: RecallScoreError) -> int:
    """The exit code of an error: 3 when the work itself failed (outputs not published, a
    notebook that raised something other than bad input), else 2 (bad input or usage,
    whether a command or a notebook met it).

    >>> exit_code(NotebookFailed("05", 3, "AttemptsFormatError", "x.csv: ...")), exit_code(
    ...     NotebookFailed("05", 3, "ValueError", "..."))
    (2, 3)
    """
    if isinstance(error, NotebookFailed):
        raised = getattr(errors, error.ename, None) if error.ename in errors.__all__ else None
        if not (isinstance(raised, type) and issubclass(raised, RecallScoreError)):
            return EXIT_FAILED
        return EXIT_FAILED if issubclass(raised, (NotebookFailed, PublishError)) else EXIT_INVALID
    return EXIT_FAILED if isinstance(error, PublishError) else EXIT_INVALID


def _benchmark_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("benchmark", nargs="?", default=None, metavar="BENCHMARK",
                        help="a benchmark JSON file (default: the shipped four-fact benchmark)")


class _Later(str):
    """A help text or a list of choices read from the rule registry only when argparse
    shows or checks it: building the parser imports no rule (``recallscore --help`` and a
    bad argument answer before pandas and the rules are imported)."""

    def __new__(cls, make):
        made = super().__new__(cls, "")
        made.make = make
        return made

    def __str__(self) -> str:
        return self.make()

    def strip(self, *args) -> str:
        return str(self).strip(*args)

    def __mod__(self, params) -> str:
        return str(self) % params

    def __contains__(self, value) -> bool:
        return value in self.make()

    def __iter__(self):
        return iter(self.make())

    def __bool__(self) -> bool:
        return True


def _squad_modes():
    from ..core.rules import SQUAD_MODES

    return SQUAD_MODES


def _squad_mode_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--squad-mode", choices=_Later(_squad_modes), default="v1.1",
                        metavar="{v1.1,v2.0}",
                        help="which official SQuAD script exact match and token F1 follow "
                             "(default: v1.1)")


def _measure_names() -> str:
    """Every measure a summary can show, as the rule registry lists them."""
    from ..core.rules import measures

    return ", ".join(m.column for m in measures())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="recallscore",
        description="Score free-text attempts against a benchmark's reference, reproducibly.",
        epilog="Exit codes: 0 success; 1 a comparison found a difference; 2 invalid input or "
               "usage; 3 a notebook or recallscore itself failed (traceback in a log file)."
    )
    parser.add_argument("--version", action="version", version=f"recallscore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in _COMMANDS:
        add(commands)
    return parser


def _validate_parser(commands) -> None:
    p = commands.add_parser("validate", help="check a benchmark file")
    _benchmark_arg(p)
    p.set_defaults(run=_validate)


def _score_parser(commands) -> None:
    p = commands.add_parser("score", help="score attempts with every rule (a .jsonl first argument "
                                          "is an items file: each attempt against its own item)")
    _benchmark_arg(p)
    p.add_argument("--attempts", metavar="FILE",
                   help="CSV, JSONL or Parquet with an 'attempt' column ('-': CSV on stdin); "
                        "default: the benchmark's own rows")
    p.add_argument("--out", metavar="FILE",
                   help="write CSV, JSONL or Parquet by extension (default: CSV on stdout)")
    p.add_argument("--schema", metavar="FILE",
                   help="a scoring schema: adds status_<fact>, weighted_score and basis_<fact> "
                        "(JSON text) columns, and its signature")
    p.add_argument("--rules", metavar="A,B",
                   help="score with these rules only, by name, comma-separated (an unknown "
                        "name lists them): the output holds their columns and signatures; "
                        "default: every rule")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--engine", choices=("pandas", "dask"), default="pandas",
                   help="dask: score a partitioned Parquet dataset (--attempts 'dir/*.parquet', "
                        "files in sorted order) with Dask; needs the 'dask' extra")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: a running Dask scheduler (tcp://host:8786); "
                        "default: a local cluster of 2 worker processes")
    _squad_mode_arg(p)
    p.set_defaults(run=_score)


def _report_parser(commands) -> None:
    p = commands.add_parser("report", help="write a scored report: every attempt's rule values "
                                           "and fact statuses, with input hashes")
    _benchmark_arg(p)
    p.add_argument("--attempts", metavar="FILE",
                   help="CSV, JSONL or Parquet with an 'attempt' column; default: the "
                        "benchmark's own rows")
    p.add_argument("--schema", metavar="FILE",
                   help="the scoring schema (default for the shipped benchmark only: the "
                        "scoring schema shipped beside it; required for any other)")
    p.add_argument("--out", metavar="REPORT.json", required=True,
                   help="the report to write; an invalid input writes an error report instead "
                        "(exit 2), beside an existing REPORT as <stem>.error.json")
    _squad_mode_arg(p)
    p.set_defaults(run=_report)


def _check_report_parser(commands) -> None:
    p = commands.add_parser("check-report", help="recompute a stored report from its inputs "
                                                 "and compare")
    p.add_argument("report", metavar="REPORT.json", help="a report written by 'recallscore report'")
    p.add_argument("--update", action="store_true",
                   help="rewrite the report from its inputs (never with an error report)")
    p.add_argument("--inputs-within", metavar="DIR",
                   help="read the report's inputs anywhere inside DIR (default: only inside "
                        "the report's own folder; an input outside it is refused)")
    p.set_defaults(run=_check_report)


def _signature_parser(commands) -> None:
    p = commands.add_parser("signature", help="print the signatures of the rules and of the "
                                              "normalizers they use, to cite in a paper")
    _squad_mode_arg(p)
    p.set_defaults(run=_signature)


def _reproduce_parser(commands) -> None:
    p = commands.add_parser("reproduce", help="recompute a benchmark's published labels and summary")
    _benchmark_arg(p)
    p.add_argument("--out-dir", metavar="DIR",
                   help="also write the per-row and summary tables as CSV into DIR")
    p.set_defaults(run=_reproduce)


def _perturb_parser(commands) -> None:
    p = commands.add_parser("perturb", help="draft a benchmark of labelled variants of a "
                                            "benchmark's reference")
    _benchmark_arg(p)
    p.add_argument("--out", metavar="FILE", required=True,
                   help="the benchmark file to write ('-': standard output)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="seeds every random choice; the same seed writes the same file "
                        "(default: 0)")
    p.add_argument("--schema", metavar="FILE",
                   help="a scoring schema whose contradictions change facts (default: a "
                        "built-in table of alternatives)")
    p.set_defaults(run=_perturb)


def _squad_parser(commands) -> None:
    p = commands.add_parser("squad", help="score SQuAD predictions as the official evaluation "
                                          "script of --mode does, printing the same JSON")
    p.add_argument("dataset", metavar="DATASET.json",
                   help="an official SQuAD dataset file (e.g. dev-v1.1.json, dev-v2.0.json)")
    p.add_argument("predictions", metavar="PREDICTIONS.json",
                   help="a JSON object mapping each question id to the predicted answer")
    p.add_argument("--mode", choices=("v1.1", "v2.0"), default="v1.1",
                   help="which official script to reproduce (default: v1.1)")
    p.add_argument("--na-prob-file", metavar="NA_PROB.json",
                   help="v2.0: a JSON object mapping each question id to its no-answer "
                        "probability; adds best_exact, best_f1 and their thresholds")
    p.add_argument("--na-prob-thresh", type=float, default=1.0, metavar="X",
                   help="v2.0: a question whose no-answer probability is above X counts as "
                        "answered 'no answer' (default: 1.0)")
    p.add_argument("--out-file", metavar="FILE",
                   help="write the JSON to FILE as the script does (no indent) instead of "
                        "printing it")
    p.set_defaults(run=_squad)


def _summarize_parser(commands) -> None:
    p = commands.add_parser("summarize", help="each system's mean per rule with a bootstrap "
                                              "interval, from a scored file")
    p.add_argument("scored", metavar="SCORED",
                   help="a file written by 'recallscore score' (CSV, JSONL or Parquet)")
    p.add_argument("--by", default="system", metavar="COLUMN",
                   help="the column naming each attempt's system (default: system)")
    p.add_argument("--rule", action="append", metavar="RULE",
                   help=_Later(lambda: f"a rule to summarize, repeatable: "
                                       f"{_measure_names()} (default: all)"))
    p.add_argument("--paired", nargs=2, metavar=("A", "B"),
                   help="also compare systems A and B on the items both answered (paired "
                        "bootstrap; McNemar's exact test for a binary rule)")
    p.add_argument("--out", metavar="FILE",
                   help="write CSV, Markdown or LaTeX by extension (.csv, .md, .tex), the "
                        "paired table beside it as <stem>.paired<ext> (default: Markdown on "
                        "stdout)")
    p.add_argument("--seed", type=int, metavar="N", help="the bootstrap seed (default: 20260916)")
    p.add_argument("--resamples", type=int, metavar="N",
                   help="bootstrap resamples (default: 2000; at most 1,000,000)")
    p.set_defaults(run=_summarize)


def _converters():
    from ..io.converters import CONVERTERS

    return CONVERTERS


def _convert_parser(commands) -> None:
    p = commands.add_parser("convert", help="convert a public set of human judgments "
                                            "into items, attempts and judgments files")
    p.add_argument("kind", choices=_Later(lambda: list(_converters())), metavar="KIND",
                   help=_Later(lambda: "which data set: " + ", ".join(_converters())))
    p.add_argument("source", metavar="SOURCE",
                   help=_Later(lambda: "; ".join(f"{c.name}: {c.source}"
                                                 for c in _converters().values())))
    p.add_argument("--out-dir", required=True, metavar="DIR",
                   help="where to write items.jsonl, attempts.parquet and judgments.csv")
    p.set_defaults(run=_convert)


def _agree_parser(commands) -> None:
    p = commands.add_parser("agree", help="rules against human judges: accuracy per system, "
                                          "agreement, ranking, annotators, disagreements")
    p.add_argument("items", metavar="ITEMS", help="an items file (JSONL)")
    p.add_argument("--attempts", required=True, metavar="FILE",
                   help="attempts with item, system and attempt columns (CSV, JSONL, Parquet)")
    p.add_argument("--judgments", required=True, metavar="FILE",
                   help="verdicts: item, judge, verdict, and system or attempt")
    p.add_argument("--out-dir", required=True, metavar="DIR", help="where to write the tables")
    p.add_argument("--reference-judge", default="human", metavar="JUDGE",
                   help="the judge the rules are compared with (default: human)")
    p.add_argument("--annotators", metavar="A,B,C",
                   help="judges whose agreement with each other is measured (annotators.csv)")
    p.add_argument("--protocol", choices=("direct", "judged-references"), default="direct",
                   help="a judge's verdict: the one it gave each attempt (direct, default), or "
                        "exact match against the references plus the answers it accepted, "
                        "minus those it rejected (judged-references, OpenQA-eval's)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="the bootstrap seed (default 0)")
    p.add_argument("--resamples", type=int, default=2000, metavar="N",
                   help="bootstrap resamples (default 2000)")
    p.add_argument("--f1-threshold", type=float, default=0.5, metavar="X",
                   help="token F1 from which an attempt counts as correct (default 0.5)")
    p.set_defaults(run=_agree)


def _probe_parser(commands) -> None:
    p = commands.add_parser("probe", help="a gaming audit: the share of answers no person would "
                                          "accept (lists, hedges, negations...) each rule accepts")
    p.add_argument("items", metavar="ITEMS", help="an items file (JSONL, or .jsonl.gz)")
    p.add_argument("--out-dir", required=True, metavar="DIR",
                   help="where to write gaming_shares.csv, gaming_examples.csv, "
                        "gaming_answers.csv and gaming_probe.json")
    p.add_argument("--rules", metavar="A,B",
                   help="the rules to audit, by name (default: every rule)")
    p.add_argument("--families", metavar="A,B",
                   help="the gaming families (default: all; echo only for an items file with "
                        "questions)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="seeds every draw; the same seed writes the same answers (default 0)")
    p.add_argument("--per-item", type=int, default=1, metavar="K",
                   help="answers per item and family (default 1)")
    p.add_argument("--f1-threshold", type=float, default=0.5, metavar="X",
                   help="token F1 from which an answer counts as accepted (default 0.5)")
    p.set_defaults(run=_probe)


def _run_parser(commands) -> None:
    p = commands.add_parser("run", help="run the workbook's notebooks with papermill")
    p.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                   help="a stem (01_reproduce_benchmark), its number (01) or a path; default all")
    p.add_argument("-p", "--parameter", nargs=2, action="append", default=[],
                   metavar=("NAME", "VALUE"), help="set a parameter of the notebooks that declare "
                   "it; a relative *_path is read from the current folder")
    p.add_argument("--output-dir", metavar="DIR",
                   help="where to write, relative to the current folder (required when a "
                        "parameter differs from its default; default: reports/)")
    p.add_argument("--jobs", type=int, default=2, metavar="N", help="notebooks at once (default 2)")
    p.add_argument("--force", action="store_true", help="rerun notebooks whose stamps are fresh")
    _accept_defaults_arg(p)
    p.set_defaults(run=_run)


def _check_parser(commands) -> None:
    p = commands.add_parser("check", help="rerun the workbook and compare with reports/ byte for byte")
    p.add_argument("--update", action="store_true", help="rewrite reports/ from a fresh run")
    p.add_argument("--jobs", type=int, default=2, metavar="N", help="notebooks at once (default 2)")
    _accept_defaults_arg(p)
    p.set_defaults(run=_check)


def _explore_parser(commands) -> None:
    p = commands.add_parser("explore", help="copy a notebook into scratch/ to explore it in "
                                            "JupyterLab, its outputs kept out of reports/")
    p.add_argument("notebook", metavar="NOTEBOOK", help="a stem (05_reanalysis) or its number (05)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing copy in scratch/ with a fresh one")
    p.set_defaults(run=_explore)


_COMMANDS = (_validate_parser, _score_parser, _report_parser, _check_report_parser,
             _signature_parser, _reproduce_parser, _perturb_parser, _squad_parser,
             _summarize_parser, _convert_parser, _agree_parser, _probe_parser, _run_parser,
             _check_parser, _explore_parser)
"""Each command's arguments, in the order ``--help`` lists them."""


def _accept_defaults_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accept-defaults", action="store_true",
                        help="accept notebooks whose declared parameter defaults differ from "
                             "those reports/manifest.json records (and record the new ones)")


# --- each command: one call to its handler, its lines printed ------------------------------
def _print(lines, *, file=None) -> None:
    for line in lines:
        print(line, file=file)


def _validate(args) -> int:
    from .validating import validate_command

    _print(validate_command(args.benchmark))
    return EXIT_OK


def _score(args) -> int:
    if args.engine == "dask" and args.rules is not None:
        raise errors.UsageError("--rules is read by --engine pandas only: the dask engine scores "
                                "with every rule")
    if args.engine == "dask":
        from .handlers import score_dask_command

        _print(score_dask_command(args.benchmark, args.attempts, args.out,
                                  squad_mode=args.squad_mode, scheduler=args.scheduler,
                                  schema_path=args.schema,
                                  progress=not args.quiet and sys.stderr.isatty()),
               file=sys.stderr)
        return EXIT_OK
    from .handlers import score_command

    with _progress_bar(enabled=not args.quiet) as progress:
        lines = score_command(args.benchmark, args.attempts, args.out, squad_mode=args.squad_mode,
                              schema_path=args.schema, progress=progress, rules=args.rules)
    _print(lines, file=sys.stderr)
    return EXIT_OK


@contextlib.contextmanager
def _progress_bar(*, enabled: bool):
    """A progress bar of the rows scored on a terminal (nothing when piped or --quiet)."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: scoring forks its workers after this
    bar = tqdm(desc="scoring", unit="row", unit_scale=True, file=sys.stderr, leave=False)

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    try:
        yield update
    finally:
        bar.close()


def _report(args) -> int:
    from .handlers import report_command

    lines, error = report_command(args.benchmark, args.attempts, args.schema, args.out,
                                  squad_mode=args.squad_mode)
    print("\n".join(lines))
    if error is not None:
        raise error
    return EXIT_OK


def _check_report(args) -> int:
    from .handlers import check_report_command

    lines, same = check_report_command(args.report, update=args.update,
                                       inputs_within=args.inputs_within)
    print("\n".join(lines))
    return EXIT_OK if same else EXIT_DIFFERENT


def _signature(args) -> int:
    from .handlers import signature_command

    _print(signature_command(args.squad_mode))
    return EXIT_OK


def _reproduce(args) -> int:
    from .handlers import reproduce_command

    lines, agrees = reproduce_command(args.benchmark, out_dir=args.out_dir)
    print("\n".join(lines))
    return EXIT_OK if agrees else EXIT_DIFFERENT


def _perturb(args) -> int:
    from .handlers import perturb_command

    text, lines = perturb_command(args.benchmark, args.out, args.seed, args.schema)
    _print(lines, file=sys.stderr)
    sys.stdout.write(text)
    return EXIT_OK


def _squad(args) -> int:
    from .handlers import squad_command

    json_text, messages = squad_command(args.dataset, args.predictions, args.mode,
                                        na_prob_file=args.na_prob_file,
                                        na_prob_thresh=args.na_prob_thresh,
                                        out_file=args.out_file)
    _print(messages, file=sys.stderr)
    if args.out_file is None:
        print(json_text)
    return EXIT_OK


def _summarize(args) -> int:
    from .handlers import summarize_command

    print("\n".join(summarize_command(args.scored, by=args.by, rules=args.rule,
                                      paired=args.paired, out=args.out, seed=args.seed,
                                      resamples=args.resamples)))
    return EXIT_OK


def _convert(args) -> int:
    from .handlers import convert_command

    _print(convert_command(args.kind, args.source, args.out_dir))
    return EXIT_OK


def _agree(args) -> int:
    from .handlers import agree_command

    _print(agree_command(args.items, args.attempts, args.judgments, args.out_dir,
                         reference_judge=args.reference_judge, annotators=args.annotators,
                         protocol=args.protocol, seed=args.seed, resamples=args.resamples,
                         f1_threshold=args.f1_threshold))
    return EXIT_OK


def _probe(args) -> int:
    from .handlers import probe_command

    _print(probe_command(args.items, args.out_dir, rules=args.rules, seed=args.seed,
                         per_item=args.per_item, families=args.families,
                         f1_threshold=args.f1_threshold))
    return EXIT_OK


def _run(args) -> int:
    from .handlers import run_command

    _print(run_command(args.notebooks, [tuple(p) for p in args.parameter],
                       output_dir=args.output_dir, jobs=args.jobs, force=args.force,
                       progress=sys.stderr.isatty(), accept_defaults=args.accept_defaults))
    return EXIT_OK


def _check(args) -> int:
    from .handlers import check_command

    lines, same = check_command(update=args.update, jobs=args.jobs, progress=sys.stderr.isatty(),
                                accept_defaults=args.accept_defaults)
    _print(lines)
    return EXIT_OK if same else EXIT_DIFFERENT


def _explore(args) -> int:
    from .handlers import explore_command

    _print(explore_command(args.notebook, force=args.force))
    return EXIT_OK


SHOWN_ERRORS = 5
"""How many of an input's errors the command line prints, one line each, before it counts
the rest: validation collects every error, so one run shows what to fix."""


def _report_error(error: RecallScoreError) -> None:
    errors = getattr(error, "errors", None) or [error]
    for each in errors[:SHOWN_ERRORS]:
        print(f"recallscore: error: {each}", file=sys.stderr)
    more = len(errors) - SHOWN_ERRORS
    if more > 0:
        print(f"recallscore: ({more} more error{'s' if more > 1 else ''})", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args = build_parser().parse_args(argv)
    try:
        with sigterm_raises():
            return _run_command(args)
    except Terminated as ended:
        return 128 + ended.signum


def _run_command(args) -> int:
    """The command's exit code, each error mapped to its code and message."""
    try:
        return args.run(args)
    except RecallScoreError as error:
        _report_error(error)
        return exit_code(error)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing left to say
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug, not bad input: one line, the traceback in a log
        log = _write_crash_log()
        print(f"recallscore: unexpected error in '{args.command}': {type(error).__name__}: "
              f"{error} (the traceback is in {log}; please report it)", file=sys.stderr)
        return EXIT_FAILED


def _write_crash_log() -> str:
    import tempfile
    import traceback

    fd, path = tempfile.mkstemp(prefix="recallscore-crash-", suffix=".log")
    with open(fd, "w", encoding="utf-8") as log:
        log.write(f"recallscore {__version__}: {' '.join(sys.argv)}\n")
        traceback.print_exc(file=log)
    return path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
