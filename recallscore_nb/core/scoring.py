"""Vectorized scoring functions: attempts first, references second, options keyword-only.

``references`` is one string for every attempt, or a sequence aligned with the attempts
whose items are a string or a list of alternative strings. Every function returns a Series
(or DataFrame) aligned with the attempts.

>>> literal_match(["Paris", "paris"], "Paris").tolist()
[True, False]
>>> squad_exact_match(["The Paris!", "London"], [["Paris", "Lutetia"], "london"]).tolist()
[True, True]
>>> token_f1(["the quick brown fox"], "the quick fox").tolist()
[0.8]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from . import engine, item_tables
from . import rules as registry
from .errors import UsageError
from .facts import as_facts
from .items import OWN_REFERENCES, Items, own_references
from .rules import (Checklist, Contains, Equivalent, LiteralMatch, NormalizedMatch, Rule,
                    SquadExactMatch, Target, TokenF1)

__all__ = [
    "literal_match",
    "equivalent",
    "normalized_match",
    "squad_exact_match",
    "token_f1",
    "contains",
    "checklist",
    "score_all",
    "score_benchmark",
    "score_attempts_frame",
    "join_scores",
    "colliding_columns",
    "output_columns",
    "score_items",
    "prepare_items",
    "item_references",
    "item_checklists",
    "PreparedItems",
    "unknown_items",
    "unknown_items_text",
    "InProcess",
    "IN_PROCESS",
    "CHUNK_ROWS",
]

CHUNK_ROWS = 200_000
"""Distinct attempts (or item-attempt pairs) scored at a time: chunks bound memory."""


class InProcess:
    """How :func:`score_all` and :func:`score_items` run their chunks unless told otherwise:
    in this process, one after another, :data:`CHUNK_ROWS` at a time. The execution layer
    passes a runner with the same two methods that scores chunks in worker processes.

    >>> IN_PROCESS.map(len, [("ab",), ("c",)], done=print)
    2
    3
    [2, 1]
    """

    def chunk_rows(self, rows: int) -> int:
        """The chunk size for ``rows`` distinct values to score."""
        return CHUNK_ROWS

    def map(self, function, tasks: list[tuple], done=None) -> list:
        """``function(*task)`` for each task, in order; ``done(n)`` is told the rows done so
        far (the length of each finished task's first element; 1 without a length)."""
        out, rows = [], 0
        for task in tasks:
            out.append(function(*task))
            rows += len(task[0]) if hasattr(task[0], "__len__") else 1
            if done is not None:
                done(rows)
        return out


IN_PROCESS = InProcess()


def _index_of(attempts) -> pd.Index:
    if isinstance(attempts, (pd.Series, pd.DataFrame)):
        return attempts.index
    return pd.RangeIndex(len(attempts))


def _pair_rule(rule: Rule, attempts, references) -> pd.Series:
    prepared = engine.Attempts(attempts)
    target = Target(references=engine.References.build(references, len(prepared)))
    values = rule.compute(prepared, target)[rule.column]
    return pd.Series(values, index=_index_of(attempts), name=rule.column)


def literal_match(attempts, references) -> pd.Series:
    """Whether each attempt equals a reference character for character (boolean Series).

    >>> literal_match(["a b", "a  b"], "a b").tolist()
    [True, False]
    """
    return _pair_rule(LiteralMatch(), attempts, references)


def normalized_match(attempts, references) -> pd.Series:
    """Whether each attempt equals a reference after the seed normalization (boolean Series).

    >>> normalized_match(["  WEST-drawer. ", "west drawer"], "westdrawer").tolist()
    [True, False]
    """
    return _pair_rule(NormalizedMatch(), attempts, references)


def squad_exact_match(attempts, references, *, mode: str = "v1.1") -> pd.Series:
    """SQuAD exact match (boolean Series), the maximum over each attempt's references.

    >>> squad_exact_match(["", "a"], "the", mode="v1.1").tolist()
    [True, True]
    """
    return _pair_rule(SquadExactMatch(mode=mode), attempts, references)


def token_f1(attempts, references, *, mode: str = "v1.1", norm: str = "squad") -> pd.Series:
    """SQuAD token F1 in [0, 1] (float Series), the maximum over each attempt's references;
    ``norm="seed"`` counts tokens under the seed normalization (articles kept).

    >>> token_f1(["", "token token"], "token").tolist()
    [0.0, 0.6666666666666666]
    >>> token_f1([""], "the", mode="v2.0").tolist()
    [1.0]
    >>> [round(x, 3) for x in token_f1(["the quick brown fox"], "the quick fox", norm="seed")]
    [0.857]
    """
    return _pair_rule(TokenF1(mode=mode, norm=norm), attempts, references)


def contains(attempts, references) -> pd.Series:
    """Whether a reference occurs in each attempt as consecutive whole tokens, both under the
    SQuAD normalization (boolean Series; :class:`~recallscore_nb.core.rules.Contains`).

    >>> contains(["It is Paris, France.", "Parisian", ""], "Paris").tolist()
    [True, False, False]
    """
    return _pair_rule(Contains(), attempts, references)


def equivalent(attempts, references, **options) -> pd.DataFrame:
    """The ``equivalent`` rule (:class:`~recallscore_nb.core.rules.Equivalent`; ``options``
    are its fields, such as ``guards``): each attempt's verdict and the step or guard that
    decided it.

    >>> equivalent(["seven", "Not Paris, but Lyon", "Paris, Lyon or Marseille"],
    ...            ["7", "Paris", "Paris"], guards=("negation", "candidates")).values.tolist()
    [[True, 'number'], [False, 'negation'], [False, 'candidates']]
    """
    rule = Equivalent(**options)
    prepared = engine.Attempts(attempts)
    target = Target(references=engine.References.build(references, len(prepared)))
    return pd.DataFrame(rule.compute(prepared, target), index=_index_of(attempts))


def checklist(attempts, facts) -> pd.DataFrame:
    """The fact checklist: the facts present, the facts total, the full match, and one
    boolean ``fact_<name>`` column per fact (:class:`~recallscore_nb.core.rules.Checklist`).

    >>> table = checklist(["west drawer", "northwest drawer"], {"place": ["west", "drawer"]})
    >>> table.values.tolist(), table.columns[-1]
    ([[1, 1, True, True], [0, 1, False, False]], 'fact_place')
    """
    target = Target(facts=as_facts(facts))
    return pd.DataFrame(Checklist().compute(engine.Attempts(attempts), target),
                        index=_index_of(attempts))


def _score_chunk(attempts, references, facts, rules_) -> dict[str, np.ndarray]:
    prepared = engine.Attempts(attempts)
    target = Target(references=engine.References.build(references, len(prepared)),
                    facts=facts)
    out: dict[str, np.ndarray] = {}
    for rule in rules_:
        out.update(rule.compute(prepared, target))
    return out


def score_all(attempts, references, *, facts, squad_mode: str = "v1.1",
              progress=None, memo=None, runner: InProcess = IN_PROCESS,
              rules=None) -> pd.DataFrame:
    """Every rule at once (or those ``rules`` names, :func:`~recallscore_nb.core.rules.
    rule_names`), normalizing each attempt once: the columns of ``recallscore score``.

    Against one reference, each distinct attempt is scored once. Attempts are scored in
    chunks (``runner.chunk_rows``) to bound memory, run by ``runner`` (this process by
    default; the execution layer's worker processes otherwise). ``progress``, when given, is
    called with the rows done and the rows in all after each chunk (a progress bar's update).
    ``memo`` (against one reference only) is an object whose ``columns(values, score)`` gives
    the score columns of distinct texts, scoring with ``score`` only those it has not seen
    (:class:`recallscore_nb.execution.memo.ScoreMemo`).

    >>> from recallscore_nb.core.rules import output_columns
    >>> table = score_all(["The west drawer."], "the west drawer", facts={"place": ["west"]})
    >>> table.columns.tolist() == output_columns(as_facts({"place": ["west"]}))
    True
    >>> [getattr(v, "item", lambda: v)() for v in table.iloc[0]]
    [False, True, True, 1.0, True, 1, 1, True, True, True, 'exact']
    """
    facts = as_facts(facts)
    every = registry.rules_for(squad_mode, rules)
    index = _index_of(attempts)
    values = engine.as_string_array(attempts)
    n = len(values)
    expand = None
    if isinstance(references, str):
        encoded = pc.dictionary_encode(values)
        values, expand = encoded.dictionary, encoded.indices.to_numpy(zero_copy_only=False)
        if memo is not None:
            return pd.DataFrame(_with_memo(memo, values, references, facts, squad_mode,
                                           progress, runner, n, expand, rules), index=index)
    elif memo is not None:
        raise ValueError("'memo' needs one reference for every attempt")
    else:
        references = references.tolist() if isinstance(references, pd.Series) else list(references)
        if len(references) != n:
            raise ValueError(f"'references' must be one string or a sequence aligned with the "
                             f"attempts (got {len(references)} references for {n} attempts)")
    size = runner.chunk_rows(len(values))
    tasks = []
    for start in range(0, max(len(values), 1), size):
        stop = min(start + size, len(values))
        chunk_refs = references if expand is not None else references[start:stop]
        tasks.append((values.slice(start, stop - start), chunk_refs, facts, every))
    parts = runner.map(_score_chunk, tasks,
                       done=lambda stop: _report_progress(progress, stop, len(values), n))
    columns = {c: np.concatenate([p[c] for p in parts]) for c in parts[0]}
    if expand is not None:
        columns = {c: v[expand] for c, v in columns.items()}
    return pd.DataFrame(columns, index=index)


def _with_memo(memo, values: pa.Array, reference: str, facts, squad_mode: str,
               progress, runner: InProcess, rows: int, expand: np.ndarray,
               rules=None) -> dict[str, np.ndarray]:
    """:func:`score_all`'s columns for ``rows`` attempts, ``values`` their distinct texts
    (``expand`` the row's text), through ``memo``."""
    def score(texts: pa.Array) -> dict[str, np.ndarray]:
        table = score_all(texts, reference, facts=facts, squad_mode=squad_mode,
                          runner=runner, rules=rules)
        return {c: table[c].to_numpy() for c in table.columns}

    columns = memo.columns(values, score)
    _report_progress(progress, 1, 1, rows)
    return {c: v[expand] for c, v in columns.items()}


def _attempts_frame(benchmark, attempts) -> pd.DataFrame:
    if attempts is None:
        frame = benchmark.rows_frame()
        return frame.dropna(axis=1, how="all") if "condition" in frame else frame
    if isinstance(attempts, pd.DataFrame):
        if "attempt" not in attempts.columns:
            raise UsageError("'attempts' must have an 'attempt' column")
        frame = attempts.reset_index(drop=True).copy()
    else:
        frame = pd.DataFrame({"attempt": pd.array(list(attempts), dtype=engine.STRING)})
    given = "id" in frame.columns  # row numbers made here are unique: not checked again
    if not given:
        frame.insert(0, "id", pd.array(engine.row_ids(0, len(frame)), dtype=engine.STRING))
    frame["id"] = frame["id"].astype(engine.STRING)
    duplicated = frame["id"][frame["id"].duplicated()] if given else frame["id"][:0]
    if len(duplicated):
        raise UsageError(f"'attempts' ids must be unique (id {duplicated.iloc[0]!r} repeats)")
    frame["attempt"] = frame["attempt"].astype(engine.STRING)
    return frame[["id", "attempt"] + [c for c in frame.columns if c not in ("id", "attempt")]]


def output_columns(benchmark, rules=None) -> list[str]:
    """The columns :func:`score_benchmark` adds: every rule's (or those of the ``rules``
    named), for the benchmark's facts (:func:`recallscore_nb.core.rules.output_columns`)."""
    return registry.output_columns(benchmark.facts, rules)


def _report_progress(progress, done: int, scored: int, rows: int) -> None:
    """Tell ``progress`` the rows done of ``rows``, ``done`` of the ``scored`` distinct
    values (or pairs) being scored."""
    if progress is not None:
        progress(rows if done >= scored else rows * done // max(scored, 1), rows)


def score_benchmark(benchmark, attempts=None, *, squad_mode: str = "v1.1",
                    progress=None, runner: InProcess = IN_PROCESS,
                    rules=None) -> pd.DataFrame:
    """Score attempts against a benchmark's reference and checklist with every rule.

    Parameters
    ----------
    benchmark : Benchmark
        What :func:`recallscore_nb.load_benchmark` returns.
    attempts : DataFrame, sequence of str, or None
        A DataFrame with an ``attempt`` column and optional ``id`` (other columns are
        carried through), or a sequence of strings; None scores the benchmark's own rows.
    squad_mode : {"v1.1", "v2.0"}
        Which official SQuAD script exact match and token F1 follow.
    runner : InProcess
        What runs the chunks: this process by default (:func:`score_all`'s ``runner``).
    rules : str or sequence of str, optional
        The rules to score with, by name (:func:`~recallscore_nb.core.rules.rule_names`;
        "contains,equivalent"); None: every rule. Only those rules' columns are computed
        and returned.

    Returns
    -------
    DataFrame
        ``id, attempt``, the carried columns, then every rule's columns (the checklist's
        ending with ``fact_<name>``).

    Examples
    --------
    >>> from recallscore_nb import load_benchmark
    >>> table = score_benchmark(load_benchmark())
    >>> int(table[LiteralMatch.column].sum()), int(table[NormalizedMatch.column].sum())
    (1, 4)
    >>> int(table[Checklist.column].sum())
    8
    >>> score_benchmark(load_benchmark(), rules="literal").columns[3:].tolist() == [
    ...     LiteralMatch.column]
    True
    """
    return score_attempts_frame(benchmark, _attempts_frame(benchmark, attempts),
                                squad_mode=squad_mode, progress=progress, runner=runner,
                                rules=rules)


def score_attempts_frame(benchmark, frame: pd.DataFrame, *, squad_mode: str = "v1.1",
                         progress=None, memo=None, runner: InProcess = IN_PROCESS,
                         rules=None) -> pd.DataFrame:
    """:func:`score_benchmark` of a frame already in its checked form (``id, attempt``, both
    text, ids unique, then the carried columns), as
    :class:`~recallscore_nb.io.attempts.AttemptChunks` gives each chunk: its ids are not
    checked again. ``memo``, ``runner`` and ``rules``: :func:`score_all`'s."""
    carried = [c for c in frame.columns if c not in ("id", "attempt")]
    _refuse_collisions(carried, output_columns(benchmark, rules))
    scores = score_all(frame["attempt"], benchmark.reference, facts=benchmark.facts,
                       squad_mode=squad_mode, progress=progress, memo=memo, runner=runner,
                       rules=rules)
    return join_scores(frame, scores)


def colliding_columns(carried, outputs) -> list[str]:
    """The carried columns an output column would overwrite, sorted: what scoring refuses.

    >>> colliding_columns(["system", "score", "id2"], ["score", "id2", "other"])
    ['id2', 'score']
    """
    return sorted(set(carried) & set(outputs))


def _refuse_collisions(carried, outputs) -> None:
    clash = colliding_columns(carried, outputs)
    if clash:
        raise UsageError(f"carried column(s) {', '.join(clash)} collide with output columns")


def join_scores(frame: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s columns then ``scores``', row by row (each numbered from 0 again): a
    chunk and the columns its scoring added, as :func:`score_attempts_frame` returns them.

    >>> join_scores(pd.DataFrame({"id": ["a"]}, index=[7]), pd.DataFrame({"s": [1]})).to_dict()
    {'id': {0: 'a'}, 's': {0: 1}}
    """
    return pd.concat([frame.reset_index(drop=True), scores.reset_index(drop=True)], axis=1)


@dataclass(frozen=True, eq=False)
class PreparedItems:
    """What scoring against items needs of them, built once for any number of calls (a file
    scored a chunk at a time): the item ids, their references, their checklists."""

    ids: pa.Array

    def rows_of(self, item_ids) -> np.ndarray:
        """Each id's item number (-1: not an item), ``item_ids`` as text (Series or array)."""
        found = pc.index_in(engine.as_string_array(item_ids, what="item"), value_set=self.ids)
        return pc.fill_null(found, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    references: item_tables.ItemReferences
    checklists: item_tables.ItemChecklists


def item_references(items: Items) -> item_tables.ItemReferences:
    """The items' references, with what every chunk reads of them made now (a process
    forked to score chunks then has it too)."""
    built = item_tables.ItemReferences.build([item.references for item in items.items])
    built.references.seed
    built.references.squad_bags.key_lookup
    return built


def item_checklists(items: Items) -> item_tables.ItemChecklists:
    """The items' checklists, with what every chunk reads of them made now."""
    built = item_tables.ItemChecklists.build([item.facts for item in items.items])
    built.term_starts, built.name_array
    return built


def prepare_items(items: Items) -> PreparedItems:
    """The items' tables for :func:`score_items` (``prepared=``), built once.

    >>> from recallscore_nb.core.items import Item
    >>> prepare_items(Items("demo", "", (Item("q1", ("Paris",), None),))).rows_of(["q", "q1"])
    array([-1,  0])
    """
    return PreparedItems(pa.array(items.ids, type=pa.string()), item_references(items),
                         item_checklists(items))


def unknown_items(items: Items | PreparedItems, item_ids) -> list[str]:
    """The ids among ``item_ids`` (a Series or sequence, as ``score_items`` reads its
    ``item`` column) that are not items of ``items``, each once, in order of appearance."""
    prepared = items if isinstance(items, PreparedItems) else prepare_items(items)
    text = _item_text(pd.Series(item_ids))
    return list(dict.fromkeys(text[prepared.rows_of(text) < 0].tolist()))


def _item_text(items: pd.Series) -> pd.Series:
    """The ``item`` column as text, as :func:`score_items` reads it."""
    if isinstance(items.dtype, pd.ArrowDtype) and pa.types.is_string(
            items.dtype.pyarrow_dtype) and not items.hasnans:
        return items
    return items.astype(str).astype(engine.STRING)


def unknown_items_text(unknown: list[str]) -> str:
    """What :func:`score_items` says of unknown item ids."""
    return (f"{len(unknown)} unknown item id(s) in the attempts, e.g. "
            f"{', '.join(map(repr, unknown[:5]))}")


def _item_rules(values, row_item: np.ndarray, prepared: PreparedItems, squad_mode: str,
                own=None, rules=None) -> dict[str, np.ndarray]:
    """Every rule (or those ``rules`` names) for attempts each scored against its own item
    (or, with ``own``, against the references a row brings)."""
    attempts = engine.Attempts(values)
    target = Target(references=prepared.references.for_rows(row_item, own),
                    checklists=prepared.checklists, row_item=row_item)
    out: dict[str, np.ndarray] = {}
    for rule in registry.rules_for(squad_mode, rules):
        out.update(rule.compute(attempts, target))
    return out


def score_items(items, attempts: pd.DataFrame, *, squad_mode: str = "v1.1",
                progress=None, prepared: PreparedItems | None = None,
                runner: InProcess = IN_PROCESS, rules=None) -> pd.DataFrame:
    """Score attempts, each against its own item's references and checklist.

    Parameters
    ----------
    items : Items
        What :func:`recallscore_nb.io.items.load_items` returns.
    attempts : DataFrame
        Columns ``item`` and ``attempt``, optional ``id`` (default: the row number), and any
        others, which are carried through. A ``references`` column (a JSON list of strings
        per row, or a list; empty: the item's) gives a row references of its own, which
        replace its item's (:func:`~recallscore_nb.core.items.own_references`).
    prepared : PreparedItems, optional
        :func:`prepare_items` of ``items``, when scoring many frames against the same items.
    runner : InProcess
        What runs the chunks: this process by default (:func:`score_all`'s ``runner``).
    rules : str or sequence of str, optional
        The rules to score with, by name (:func:`score_benchmark`'s ``rules``).

    Returns
    -------
    DataFrame
        ``id, item, attempt``, the carried columns, then every rule's columns (the
        checklist's ending with the absent facts' names joined by ";"); the checklist's
        columns are empty for an item without a checklist. Each distinct (item, attempt)
        pair is scored once.

    Examples
    --------
    >>> from recallscore_nb.core.items import Item, Items
    >>> from recallscore_nb.core.facts import Fact
    >>> items = Items("demo", "", (Item("q1", ("The west drawer.",), (Fact("place", ("west",)),)),
    ...                            Item("q2", ("Paris", "Lutetia"), None)))
    >>> table = score_items(items, pd.DataFrame({"item": ["q1", "q2"], "attempt": ["east drawer", "lutetia"]}))
    >>> table[[NormalizedMatch.column, Checklist.present, Checklist.missing]].values.tolist()
    [[False, 0, 'place'], [True, <NA>, <NA>]]
    >>> score_items(items, pd.DataFrame({"item": ["q2"], "attempt": ["lutetia"]}),
    ...             rules=["contains"]).columns.tolist()
    ['id', 'item', 'attempt', 'contains']
    """
    if not isinstance(items, Items):
        raise UsageError(f"'items' must be an Items (got a {type(items).__name__}); read an "
                         "items file with recallscore_nb.io.items.load_items")
    registry.rule_names(rules)  # an unknown name refused before anything is read
    for column in ("item", "attempt"):
        if column not in attempts.columns:
            raise UsageError(f"'attempts' must have an {column!r} column")
    frame = attempts.reset_index(drop=True).copy()
    if "id" not in frame.columns:
        frame.insert(0, "id", pd.array(engine.row_ids(0, len(frame)), dtype=engine.STRING))
    frame["item"] = _item_text(frame["item"])
    prepared = prepared or prepare_items(items)
    row_item = prepared.rows_of(frame["item"])
    if (row_item < 0).any():
        unknown = list(dict.fromkeys(frame["item"][row_item < 0].tolist()))
        raise UsageError(unknown_items_text(unknown))
    values = engine.as_string_array(frame["attempt"])
    own = own_references(frame[OWN_REFERENCES]) if OWN_REFERENCES in frame.columns else None
    inverse, first = _distinct_pairs(values, row_item, own)
    size = runner.chunk_rows(len(first))
    tasks = []
    for start in range(0, max(len(first), 1), size):
        rows = first[start:start + size]
        tasks.append((values.take(pa.array(rows)), row_item[rows], prepared, squad_mode,
                      None if own is None else own.take(pa.array(rows)), rules))
    parts = runner.map(_item_rules, tasks,
                       done=lambda done: _report_progress(progress, done, len(first),
                                                          len(frame)))
    columns = {c: _concat([p[c] for p in parts])[inverse] for c in parts[0]}
    carried = [c for c in frame.columns if c not in ("id", "item", "attempt")]
    _refuse_collisions(carried, columns)
    out = frame[["id", "item", "attempt", *carried]].copy()
    out["attempt"] = out["attempt"].astype(engine.STRING)
    for column, value in columns.items():
        out[column] = value
    return out


def _distinct_pairs(values, row_item: np.ndarray, own) -> tuple[np.ndarray, np.ndarray]:
    """Each row's distinct (item, attempt, own references) triple, numbered in order of first
    appearance (hashed, not sorted), and the first row of each."""
    codes = pc.dictionary_encode(values)
    pair = row_item.astype(np.int64) * max(len(codes.dictionary), 1) + codes.indices.to_numpy(
        zero_copy_only=False).astype(np.int64)
    if own is not None:  # a row's own references are part of what is scored once
        pair = pd.factorize(pair)[0] * (len(values) + 1) + 1 + pd.factorize(
            pd.Series(own.to_pylist()).map(lambda refs: refs and "\x00".join(refs)),
            use_na_sentinel=True)[0]
    inverse, _ = pd.factorize(pair)
    first = np.flatnonzero(np.diff(np.maximum.accumulate(inverse), prepend=-1) > 0)
    return inverse, first


def _concat(parts):
    """Concatenate chunk results: numpy arrays or pandas extension arrays of one type."""
    if isinstance(parts[0], np.ndarray):
        return np.concatenate(parts)
    return type(parts[0])._concat_same_type(parts)
