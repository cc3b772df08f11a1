"""What attempts are scored against, loaded once for a command: a benchmark (one reference
and checklist for every attempt) or an items file (each attempt against its own item), with
an optional scoring schema. A scorer says which columns it adds, refuses an attempts table
that cannot be scored (one home for each check), scores a whole table or one chunk of a
file, and signs what it writes.

>>> scorer = load_scorer(None)
>>> scorer.role, scorer.signatures[0].split("|")[0], len(scorer.score_whole(None))
('benchmark', 'literal', 12)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pandas as pd

from .._version import __version__
from ..core import registry, rules
from ..core.rules import rule_names
from ..core.errors import AttemptsFormatError
from ..core.items import OWN_REFERENCES, bad_references
from ..core.scoring import (PreparedItems, colliding_columns, join_scores, score_attempts_frame,
                            score_items, unknown_items, unknown_items_text)
from ..core.status import item_status_columns, status_columns
from ..io.benchmarks import load_benchmark
from ..io.items import is_items_file
from ..io.scored.statuses import item_status_frame, status_frame
from ..io.scoring_schemas import load_scoring_schema
from . import api
from .api import load_items, prepare_items, warmed
from .memo import ScoreMemo
from .memory import paused_collector
from .processes import run_in_child

__all__ = ["load_scorer", "BenchmarkScorer", "ItemsScorer",
           "ITEM_CHUNK_ROWS"]

ITEM_CHUNK_ROWS = 65_536
"""Rows per chunk of a file scored against items (half the default: a chunk against 100,000
items takes more memory; figures in benchmarks/README.md)."""


def load_scorer(path, *, squad_mode: str = "v1.1", schema_path=None, rules=None):
    """The scorer a file gives: an items file (``.jsonl``) or a benchmark (None: the shipped
    one), with the scoring schema at ``schema_path`` when given, scoring with every rule or
    those ``rules`` names (:func:`~recallscore_nb.core.rules.rule_names`: an unknown name
    is refused before any file is read). Without a schema, an items file is read and its
    tables prepared in a child process (:func:`_prepared_items`)."""
    chosen = None if rules is None else rule_names(rules)
    if is_items_file(path) and schema_path is None:
        items, prepared = run_in_child(_prepared_items, path)
        return ItemsScorer(squad_mode, None, items, warmed(prepared), rules=chosen)
    if is_items_file(path):
        items = load_items(path)
        schema = None if schema_path is None else load_scoring_schema(schema_path, items)
        return ItemsScorer(squad_mode, schema, items, rules=chosen)
    bench = load_benchmark(path)
    schema = None if schema_path is None else load_scoring_schema(schema_path, bench)
    return BenchmarkScorer(squad_mode, schema, bench, rules=chosen)


def _references_fault(path, frame) -> list:
    """The fault of a chunk's first row whose ``references`` are not a list of strings."""
    bad = bad_references(frame[OWN_REFERENCES])
    if bad is None:
        return []
    row, message = bad
    return [AttemptsFormatError(path, "", OWN_REFERENCES, row_id=str(frame["id"].iloc[row]),
                                message=message)]


def _prepared_items(path) -> tuple:
    """The items file at ``path`` read, without its records, and its prepared tables: all
    that scoring without a schema reads of it. Made in a child process, the records and the
    preparation's garbage stay there (hundreds of MiB for 100,000 items, which a process
    forked from this one would otherwise share: benchmarks/README.md)."""
    items = load_items(path)
    prepared = prepare_items(items)
    return dataclasses.replace(items, items=()), prepared


def _collision(path, carried, outputs):
    """The fault of carried columns that an output column would overwrite (None if none)."""
    clash = colliding_columns(carried, outputs)
    if not clash:
        return None
    return AttemptsFormatError(path, "", clash[0], message=(
        f"column {clash[0]!r} collides with an output column; rename it"))


@dataclass
class _Scorer:
    squad_mode: str
    schema: object | None
    rules: tuple[str, ...] | None = field(default=None, kw_only=True)
    """The rules scored with, by name (None: every rule)."""

    @property
    def signatures(self) -> list[str]:
        """Every rule's signature (of the rules scored with), then those of the normalizers they
        compare under, then the scoring schema's: what to cite beside the scores."""
        signed = registry.signatures(self.squad_mode, self.rules)
        return signed + ([self.schema.signature()] if self.schema is not None else [])

    @property
    def metadata(self) -> dict:
        """What a Parquet output records of the scorer: version, signatures, input hashes."""
        out = {"version": __version__, "signatures": self.signatures,
               f"{self.role}_sha256": getattr(self, self.role).sha256}
        if self.schema is not None:
            out["schema_sha256"] = self.schema.sha256
        return out

    def chunk_function(self):
        """``score(chunk)``: a checked chunk's scored table, statuses included (made once,
        before workers are forked: they inherit what it holds)."""
        rules_of = self._chunk_rules()
        return lambda frame: self._with_statuses(rules_of(frame))

    def score_whole(self, frame: pd.DataFrame | None, path=None, *, progress=None):
        """The scored table of a whole attempts table read from ``path`` (checked first)."""
        if frame is not None:
            fault = self.checker(path)(frame, True)
            if fault is not None:
                raise fault()
        with paused_collector():
            return self._score_whole(frame, path, progress)



@dataclass
class BenchmarkScorer(_Scorer):
    """Every attempt against one benchmark's reference and checklist."""

    benchmark: object
    role = "benchmark"
    chunk_rows = None  # the attempts reader's default

    @property
    def source(self):
        return self.benchmark

    @property
    def outputs(self) -> list[str]:
        """Every column scoring adds, statuses included."""
        out = rules.output_columns(self.benchmark.facts, self.rules)
        return out + (status_columns(self.benchmark) if self.schema is not None else [])

    def checker(self, path):
        """``check(frame, first)``: the fault to report once the whole file is read, or None;
        carried columns are checked on the first chunk (every chunk has the same)."""
        outputs = self.outputs

        def check(frame, first):
            fault = _collision(path, frame.columns[2:], outputs) if first else None
            return None if fault is None else (lambda: fault)
        return check

    def _chunk_rules(self):
        """Every rule on a checked chunk; distinct attempts already scored (a memo per
        process, empty in a worker when it is forked) are looked up."""
        memo = ScoreMemo()
        return lambda frame: score_attempts_frame(self.benchmark, frame,
                                                  squad_mode=self.squad_mode, memo=memo,
                                                  rules=self.rules)

    def lean(self, score):
        """(send, added, join) for workers running ``score``: a worker is sent the chunk's
        ``id, attempt``, computes the columns scoring adds, and the parent joins them to the
        chunk (less to pickle than the whole chunk there and back)."""
        return ((lambda frame: frame[["id", "attempt"]]),
                (lambda sent: score(sent).iloc[:, 2:]), join_scores)

    def release(self) -> None:
        """Nothing to let go once workers score: the parent only reads and writes."""

    def restore(self) -> None:
        """Nothing was let go."""

    def _score_whole(self, frame, path, progress):
        table = api.score_benchmark(self.benchmark, frame, squad_mode=self.squad_mode,
                                    progress=progress, rules=self.rules)
        return self._with_statuses(table)

    def _with_statuses(self, table):
        if self.schema is None:
            return table
        with paused_collector():
            statuses = status_frame(table["attempt"], self.benchmark, self.schema)
        return pd.concat([table, statuses], axis=1)


@dataclass
class ItemsScorer(_Scorer):
    """Each attempt against its own item's references and checklist."""

    items: object
    prepared: PreparedItems | None = field(default=None, repr=False)
    role = "items"
    chunk_rows = ITEM_CHUNK_ROWS

    @property
    def source(self):
        """The items, their records read again if they were let go (the Dask engine scores
        from them)."""
        if not self.items.items:
            self.items = load_items(self.items.path)
        return self.items

    @property
    def outputs(self) -> list[str]:
        out = rules.output_columns(None, self.rules)
        return out + (item_status_columns(self.items) if self.schema is not None else [])

    def _prepared(self) -> PreparedItems:
        if self.prepared is None:
            self.prepared = prepare_items(self.items)
        return self.prepared

    def checker(self, path):
        """``check(frame, first)``: the fault to report once the whole file is read: no
        ``item`` column, then the unknown item ids of every chunk, then a carried column an
        output would overwrite."""
        outputs, missing, unknown, clash, bad_references = self.outputs, [], {}, [], []

        def check(frame, first):
            if first and "item" not in frame.columns:
                missing.append(AttemptsFormatError(
                    path, "", "item", message="missing column 'item' (scoring against an items "
                                              "file)"))
            if "item" in frame.columns:
                unknown.update(dict.fromkeys(unknown_items(self._prepared(), frame["item"])))
            if OWN_REFERENCES in frame.columns and not bad_references:
                bad_references.extend(_references_fault(path, frame))
            carried = [c for c in frame.columns if c not in ("id", "item", "attempt")]
            fault = _collision(path, carried, outputs) if first else None
            clash.extend([fault] if fault is not None else [])
            if not (missing or unknown or clash or bad_references):
                return None
            if missing or bad_references or clash and not unknown:
                return lambda: (missing or bad_references or clash)[0]
            return lambda: AttemptsFormatError(path, "", "item",
                                               message=unknown_items_text(list(unknown)))
        return check

    def _chunk_rules(self):
        """Every rule on a checked chunk against the prepared items (the items themselves are
        let go when no schema needs them: scoring reads the prepared tables only)."""
        prepared = self._prepared()
        if self.schema is None:
            self.items = dataclasses.replace(self.items, items=())
        return lambda frame: score_items(self.items, frame, squad_mode=self.squad_mode,
                                         prepared=prepared, rules=self.rules)

    def lean(self, score):
        """None: a worker is sent the whole chunk and gives back the whole table."""
        return None

    def release(self) -> None:
        """Once workers score, the parent checks item ids only: let the rest go."""
        self.prepared = dataclasses.replace(self._prepared(), references=None, checklists=None)

    def restore(self) -> None:
        """What :meth:`chunk_function` and :meth:`release` let go, read again (a file that
        could not be streamed is scored whole)."""
        if self.prepared is not None and self.prepared.references is None or not self.items.items:
            self.items = load_items(self.items.path)
            self.prepared = None

    def _score_whole(self, frame, path, progress):
        if frame is None:
            from ..core.errors import UsageError

            raise UsageError("scoring an items file needs --attempts (with 'item' and "
                             "'attempt' columns)")
        table = api.score_items(self.items, frame, squad_mode=self.squad_mode,
                                progress=progress, prepared=self._prepared(), rules=self.rules)
        return self._with_statuses(table)

    def _with_statuses(self, table):
        if self.schema is None:
            return table
        with paused_collector():
            statuses = item_status_frame(table["attempt"], table["item"], self.items,
                                         self.schema)
        return pd.concat([table, statuses.set_axis(table.index)], axis=1)
