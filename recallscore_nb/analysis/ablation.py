"""The normalization ablation: "normalization is the scorer", measured.

Each step of the published ``seed`` pipeline is switched off in turn, and each optional step
switched on, giving a named :class:`~recallscore_nb.core.normalize.Normalizer` per variant
built from the registered steps (:data:`ABLATIONS`). Under each pipeline every benchmark row
gets three verdicts, computed by the engine the rules use:

- normalized match: the attempt and the reference are equal after that pipeline;
- checklist full match: every term of every fact, normalized by that pipeline, occurs in the
  normalized attempt as whole consecutive tokens (split on spaces; with whitespace collapse
  off, whitespace is compared as written). A term the pipeline erases entirely cannot be
  found: its fact counts as absent (policy ``empty-term:absent``);
- the schema-aware checklist's full match, the fact statuses matched under that pipeline.

A *flip* is a row whose verdict under a variant differs from its verdict under the baseline
(``seed``). Pure: no file is opened, nothing is drawn (:func:`heatmap_panel` prepares what
:func:`recallscore_nb.render.plots.plot_ablation` draws). The verdicts are named as the rule
registry names the rules' columns (:data:`VERDICTS`).

>>> from recallscore_nb import load_benchmark
>>> table = ablation_table(load_benchmark())
>>> f = flips(table).set_index(["pipeline", "rule"])
>>> f.loc[("seed-nocase", NORMALIZED), ["flips", "lost"]].to_dict()
{'flips': 1, 'lost': 'R02'}
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .._version import __version__
from ..core import engine
from ..core.errors import UsageError
from ..core.macros import macro_tag
from ..core.normalize import SEED, Normalizer
from ..core.rules import Checklist, NormalizedMatch
from ..core.status import fact_status

__all__ = [
    "ABLATIONS",
    "CHANGES",
    "BASELINE",
    "VERDICTS",
    "NORMALIZED",
    "CHECKLIST",
    "SCHEMA",
    "SIGNED_STEPS",
    "pipeline_signature",
    "ablation_signature",
    "normalized_verdicts",
    "facts_matrix",
    "ablation_table",
    "verdict_matrix",
    "flip_matrix",
    "flips",
    "matrix_table",
    "HeatmapPanel",
    "heatmap_panel",
]

BASELINE = "seed"
"""The published pipeline every variant is compared with."""

ABLATIONS: dict[str, Normalizer] = {
    "seed": SEED,
    "seed-nocase": SEED.with_steps("seed-nocase", lowercase=False),
    "seed-nopunct": SEED.with_steps("seed-nopunct", punctuation=False),
    "seed-nospace": SEED.with_steps("seed-nospace", whitespace=False),
    "seed+articles": SEED.with_steps("seed+articles", articles=True),
    "seed+unipunct": SEED.with_steps("seed+unipunct", unicode_punctuation=True),
    "seed+nfkc": SEED.with_steps("seed+nfkc", nfkc=True),
}
"""The ablation's pipelines by name: the baseline, each seed step off, each option on."""

CHANGES: dict[str, str] = {
    "seed": "the published pipeline",
    "seed-nocase": "without case folding",
    "seed-nopunct": "without ASCII punctuation deletion",
    "seed-nospace": "without whitespace trim and collapse",
    "seed+articles": "plus removal of the articles a/an/the",
    "seed+unipunct": "plus deletion of Unicode punctuation",
    "seed+nfkc": "plus NFKC normalization",
}
"""What each pipeline of :data:`ABLATIONS` changes relative to ``seed``."""

NORMALIZED, CHECKLIST, SCHEMA = NormalizedMatch.column, Checklist.column, "schema_full_match"
VERDICTS = (NORMALIZED, CHECKLIST, SCHEMA)
"""The verdicts the ablation computes under each pipeline: the normalized match's and the
checklist's columns, and the schema-aware checklist's full match."""


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


SIGNED_STEPS = ("lowercase", "punctuation", "whitespace", "articles", "unicode_punctuation",
                "nfkc")
"""The steps the ablation switches, in the order its pipeline signatures name them."""


def pipeline_signature(normalizer: Normalizer) -> str:
    """A pipeline's signature: ``normalizer|name:<name>|<step>:yes/no|…|version:X``, one field
    per step of :data:`SIGNED_STEPS` (the steps apply in the registry's order).

    >>> pipeline_signature(ABLATIONS["seed-nocase"])  # doctest: +ELLIPSIS
    'normalizer|name:seed-nocase|lowercase:no|punctuation:yes|whitespace:yes|articles:no|unicode_punctuation:no|nfkc:no|version:...'
    """
    steps = [f"{step}:{_yes(step in normalizer.steps)}" for step in SIGNED_STEPS]
    return "|".join(["normalizer", f"name:{normalizer.name}", *steps, f"version:{__version__}"])


def ablation_signature(baseline: str = BASELINE) -> str:
    """The signature of the ablation's own choices (verdicts, matching, policies).

    >>> ablation_signature()  # doctest: +ELLIPSIS
    'ablation|verdicts:normalized,checklist|baseline:seed|tok:ws|match:whole-token|empty-term:absent|version:...'
    """
    return "|".join(["ablation", "verdicts:normalized,checklist", f"baseline:{baseline}",
                     "tok:ws", "match:whole-token", "empty-term:absent",
                     f"version:{__version__}"])


def normalized_verdicts(attempts, reference: str, normalizer: Normalizer) -> np.ndarray:
    """Whether each attempt equals ``reference`` after ``normalizer`` (boolean array).

    >>> normalized_verdicts(["The END", "The  end"], "The end.", ABLATIONS["seed-nocase"]).tolist()
    [False, True]
    """
    prepared = engine.Attempts(attempts)
    refs = engine.References.build(reference, len(prepared))
    return engine.equal_any(prepared.normalized(normalizer), refs.normalized(normalizer), refs)


def facts_matrix(attempts, facts, normalizer: Normalizer) -> np.ndarray:
    """Rows × facts: whether every term of the fact occurs in the attempt under ``normalizer``.

    >>> from recallscore_nb.core.facts import Fact
    >>> facts = [Fact("place", ("west drawer",)), Fact("what", ("Token",))]
    >>> facts_matrix(["The token, west drawer."], facts, ABLATIONS["seed-nocase"]).tolist()
    [[True, False]]
    """
    return engine.checklist_matrix(engine.Attempts(attempts), facts, normalizer)


def schema_verdicts(attempts, benchmark, schema, normalizer: Normalizer) -> np.ndarray:
    """Whether every fact is present under the scoring schema (equivalents count; a
    contradicted, negated, conflicting or missing fact fails), matched under ``normalizer``.
    A term the pipeline erases cannot be found: every row fails (policy ``empty-term:absent``)."""
    try:
        statuses = fact_status(attempts, benchmark, schema, normalizer=normalizer, basis=False)
    except UsageError:
        return np.zeros(len(attempts), dtype=bool)
    return (statuses.filter(like="status_") == "present").all(axis=1).to_numpy()


def ablation_table(benchmark, pipelines: dict[str, Normalizer] | None = None,
                   schema=None) -> pd.DataFrame:
    """Every row's verdicts under every pipeline, as one tidy table.

    Parameters
    ----------
    benchmark : Benchmark
        The rows, reference and facts to use.
    pipelines : dict, optional
        Name → Normalizer; :data:`ABLATIONS` by default.
    schema : ScoringSchema, optional
        The scoring schema of the schema-aware checklist; None: no schema (every fact
        weight 1, no equivalents, contradictions or negation).

    Returns
    -------
    DataFrame
        ``pipeline, id, condition``, the normalized match, the checklist's facts present,
        facts total and full match (under their columns' names), and ``schema_full_match``:
        one row per pipeline and benchmark row, pipelines in the given order, rows in file
        order.
    """
    pipelines = ABLATIONS if pipelines is None else pipelines
    ids = [row.id for row in benchmark.rows]
    conditions = [row.condition or "" for row in benchmark.rows]
    attempts = engine.as_string_array([row.attempt for row in benchmark.rows])
    n_facts = len(benchmark.facts)
    parts = []
    for name, normalizer in pipelines.items():
        present = facts_matrix(attempts, benchmark.facts, normalizer).sum(axis=1)
        parts.append(pd.DataFrame({
            "pipeline": name,
            "id": ids,
            "condition": conditions,
            NORMALIZED: normalized_verdicts(attempts, benchmark.reference, normalizer),
            Checklist.present: present.astype(np.int64),
            Checklist.total: np.full(len(ids), n_facts, dtype=np.int64),
            CHECKLIST: present == n_facts,
            SCHEMA: schema_verdicts(attempts, benchmark, schema, normalizer),
        }))
    return pd.concat(parts, ignore_index=True)


def _order(values: pd.Series) -> list:
    return list(dict.fromkeys(values.tolist()))


def verdict_matrix(table: pd.DataFrame, verdict: str = NORMALIZED) -> pd.DataFrame:
    """Rows × pipelines of one column of :func:`ablation_table`, both in their first order.

    >>> t = pd.DataFrame({"pipeline": ["p", "p", "q", "q"], "id": ["b", "a", "b", "a"],
    ...                   NORMALIZED: [True, False, True, True]})
    >>> verdict_matrix(t).to_dict("list")
    {'p': [True, False], 'q': [True, True]}
    """
    wide = table.pivot(index="id", columns="pipeline", values=verdict)
    out = wide.reindex(index=_order(table["id"]), columns=_order(table["pipeline"]))
    out.columns.name = None
    return out


def flip_matrix(table: pd.DataFrame, verdict: str = NORMALIZED, *,
                baseline: str = BASELINE) -> pd.DataFrame:
    """Rows × pipelines: True where the verdict differs from the baseline's.

    >>> t = pd.DataFrame({"pipeline": ["seed", "x"], "id": ["a", "a"],
    ...                   NORMALIZED: [True, False]})
    >>> flip_matrix(t).to_dict("list")
    {'seed': [False], 'x': [True]}
    """
    wide = verdict_matrix(table, verdict)
    if baseline not in wide.columns:
        raise ValueError(f"'baseline' must be one of the table's pipelines "
                         f"({', '.join(map(str, wide.columns))}; got {baseline!r})")
    return wide.ne(wide[baseline], axis=0)


def flips(table: pd.DataFrame, *, baseline: str = BASELINE) -> pd.DataFrame:
    """Per pipeline and verdict: passes, flips, and which rows flipped which way.

    Returns ``pipeline, rule, passes, flips, lost, gained``: ``lost`` lists the rows that
    pass under the baseline and fail under the pipeline, ``gained`` the reverse
    (comma-separated ids, empty when none).

    >>> t = pd.DataFrame({"pipeline": ["seed", "seed", "x", "x"], "id": ["a", "b", "a", "b"],
    ...                   NORMALIZED: [True, False, False, True],
    ...                   CHECKLIST: [True, True, True, True]})
    >>> row = flips(t).iloc[2].to_dict()
    >>> row["rule"] == NORMALIZED, row["passes"], row["flips"], row["lost"], row["gained"]
    (True, 1, 2, 'a', 'b')
    """
    records = []
    wides = {v: verdict_matrix(table, v).astype(bool) for v in VERDICTS if v in table}
    for verdict, wide in wides.items():
        if baseline not in wide.columns:
            raise ValueError(f"'baseline' must be one of the table's pipelines "
                             f"({', '.join(map(str, wide.columns))}; got {baseline!r})")
    for pipeline in _order(table["pipeline"]):
        for verdict, wide in wides.items():
            base, now = wide[baseline], wide[pipeline]
            records.append({
                "pipeline": pipeline,
                "rule": verdict,
                "passes": int(now.sum()),
                "flips": int((now != base).sum()),
                "lost": ", ".join(map(str, wide.index[base & ~now])),
                "gained": ", ".join(map(str, wide.index[~base & now])),
            })
    return pd.DataFrame.from_records(
        records, columns=["pipeline", "rule", "passes", "flips", "lost", "gained"])


def matrix_table(table: pd.DataFrame, *, baseline: str = BASELINE) -> pd.DataFrame:
    """The paper's ablation table: rows × pipelines as text, a flips count per pipeline.

    One block per verdict (``rule`` column): each benchmark row's cells read ``pass`` or
    ``fail`` (the checklist's with the facts present, ``fail 3/4``), marked ``*`` where
    the verdict flipped relative to ``baseline``; then a ``flips`` row with the counts.

    >>> t = pd.DataFrame({"pipeline": ["seed", "x"], "id": ["a", "a"], "condition": ["", ""],
    ...                   NORMALIZED: [True, False], Checklist.present: [2, 1],
    ...                   Checklist.total: [2, 2], CHECKLIST: [True, False]})
    >>> matrix_table(t).drop(columns="rule").to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'id': 'a', 'condition': '', 'seed': 'pass', 'x': 'fail*'},
     {'id': 'flips', 'condition': '', 'seed': '0', 'x': '1'},
     {'id': 'a', 'condition': '', 'seed': 'pass 2/2', 'x': 'fail 1/2*'},
     {'id': 'flips', 'condition': '', 'seed': '0', 'x': '1'}]
    """
    pipelines = _order(table["pipeline"])
    conditions = dict(zip(table["id"], table["condition"]))
    blocks = []
    for verdict in (v for v in VERDICTS if v in table):
        passes = verdict_matrix(table, verdict).astype(bool)
        flipped = flip_matrix(table, verdict, baseline=baseline)
        text = passes.map(lambda ok: "pass" if ok else "fail")
        if verdict == CHECKLIST:
            present = verdict_matrix(table, Checklist.present)
            total = verdict_matrix(table, Checklist.total)
            text = text + " " + present.astype(str) + "/" + total.astype(str)
        text = text.where(~flipped, text + "*")
        block = pd.DataFrame({"rule": verdict, "id": list(passes.index),
                              "condition": [conditions[i] for i in passes.index]})
        for pipeline in pipelines:
            block[pipeline] = text[pipeline].to_numpy()
        counts = {"rule": verdict, "id": "flips", "condition": ""}
        counts.update({p: str(int(flipped[p].sum())) for p in pipelines})
        blocks += [block, pd.DataFrame([counts])]
    return pd.concat(blocks, ignore_index=True)


@dataclasses.dataclass(frozen=True)
class HeatmapPanel:
    """One verdict of :func:`ablation_table` as its heatmap shows it (rows × pipelines, both
    in their first order): whether each cell passes, whether it flipped relative to the
    baseline, the facts present and total (the checklist's verdict only), the distinct facts
    totals, and each row's condition by id. :func:`recallscore_nb.render.plots.plot_ablation`
    draws it."""

    verdict: str
    passes: pd.DataFrame
    flipped: pd.DataFrame
    present: pd.DataFrame | None
    total: pd.DataFrame | None
    totals: tuple[int, ...]
    conditions: dict


def heatmap_panel(table: pd.DataFrame, verdict: str = NORMALIZED, *,
                  baseline: str = BASELINE) -> HeatmapPanel:
    """The heatmap of one verdict of :func:`ablation_table`.

    >>> t = pd.DataFrame({"pipeline": ["seed", "x"], "id": ["a", "a"], "condition": ["", ""],
    ...                   NORMALIZED: [True, False]})
    >>> panel = heatmap_panel(t)
    >>> panel.passes.to_dict("list"), panel.flipped.to_dict("list")
    ({'seed': [True], 'x': [False]}, {'seed': [False], 'x': [True]})
    """
    checklist = verdict == CHECKLIST
    totals = (tuple(int(v) for v in table[Checklist.total].unique())
              if Checklist.total in table else ())
    return HeatmapPanel(
        verdict=verdict,
        passes=verdict_matrix(table, verdict).astype(bool),
        flipped=flip_matrix(table, verdict, baseline=baseline),
        present=verdict_matrix(table, Checklist.present) if checklist else None,
        total=verdict_matrix(table, Checklist.total) if checklist else None,
        totals=totals,
        conditions=dict(zip(table["id"], table["condition"])),
    )

