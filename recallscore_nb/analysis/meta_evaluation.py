"""Rules against human judges: the meta-evaluation (``recallscore agree``, notebook 08).

Every rule of the registry scores the attempts; each judge's verdicts (read and matched by
:mod:`recallscore_nb.io.judgments`) are the other side. Five tables:

- :func:`systems_table`: each system's accuracy under every rule (token F1 as its mean)
  and every judge, with item-bootstrap 95% intervals. Rules are measured over the attempts
  the reference judge judged, so their n equals its n.
- :func:`agreement_table`: per rule and judge, over the attempts the judge judged: accuracy
  (the share where the rule's verdict is the judge's), Cohen's kappa, precision and recall of
  the rule against the judge; graded rules count as correct from ``f1_threshold`` on.
- :func:`ranking_table`: Kendall's tau-b between the systems' scores under each measure and
  under the reference judge, and the pairs it orders the other way.
- :func:`annotator_table`: Krippendorff's alpha (nominal) of the named judges together, and
  Cohen's kappa of each pair, over the things they judged.
- :func:`disagreement_table`: every judged attempt where a rule and the reference judge
  disagree, with a mechanical category.

**Protocols.** ``direct``: a judge's verdict on an attempt is the verdict it gave that
attempt (or its text). ``judged-references`` (OpenQA-eval's): an attempt is correct under a
judge when it matches, by SQuAD exact match, one of its item's references plus every answer
the judge accepted for the item, minus every answer it rejected (the rejected string and its
lowercase are removed); with nothing left, an attempt the judge rejected is incorrect and any
other is not counted; an item where the judge gave no verdict (only empty ones, or none) is
left out of that judge's n.

**The bootstrap.** One ``(resamples, n_items)`` index matrix, drawn from
``numpy.random.default_rng(seed)``, resamples the items for every system, measure, rule and
judge at once: it becomes a matrix of item weights, and each statistic is a ratio of weighted
per-item sums (one matrix product), never a loop over resamples in pandas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import krippendorff
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scipy import stats as scipy_stats

from .._version import __version__
from ..core import engine, exact, item_tables
from ..core import rules as registry
from ..core.errors import UsageError
from ..core.items import OWN_REFERENCES, Items, own_references
from ..core.registry import signatures
from ..core.scoring import score_items
from .agreement import cohen_kappa, percent_agreement
from .annotator_panel import panel_tables
from .bootstrap import bootstrap_signature
from .resample_budget import agree_bytes, check_resamples_fit

__all__ = ["PROTOCOLS", "CATEGORIES", "MetaEvaluation", "judge_verdicts", "rule_verdicts",
           "bootstrap_weights", "systems_table", "agreement_table", "ranking_table", "rank_table",
           "annotator_table", "disagreement_table", "disagreement_categories", "agree_signature",
           "meta_evaluate"]

PROTOCOLS = ("direct", "judged-references")
CATEGORIES = ("reference-inside-longer-answer", "number-or-date", "no-token-overlap",
              "partial-overlap")
"""The disagreement categories, checked in this order (the first that applies)."""

TIE_DECIMALS = 9
"""Means equal to this many decimals are tied (a sum of per-item floats is not exact)."""
_CONFIDENCE = 0.95
_BLOCK_ENTRIES = 2**22
"""Index-matrix entries drawn at a time (whole rows), to bound memory."""


def agree_signature(*, protocol: str, reference_judge: str, f1_threshold: float,
                    resamples: int, seed: int) -> str:
    """Every setting that changes the meta-evaluation's numbers.

    >>> agree_signature(protocol="direct", reference_judge="human", f1_threshold=0.5,
    ...                 resamples=2000, seed=0)  # doctest: +ELLIPSIS
    'agree|protocol:direct|reference:human|f1-threshold:0.5|version:...'
    """
    fields = [("protocol", protocol), ("reference", reference_judge),
              ("f1-threshold", format(f1_threshold, "g"))]
    return "|".join(["agree"] + [f"{k}:{v}" for k, v in fields] + [f"version:{__version__}"])


def _check(protocol, resamples, seed, f1_threshold) -> None:
    if protocol not in PROTOCOLS:
        raise UsageError(f"'protocol' must be one of {', '.join(PROTOCOLS)} (got {protocol!r})")
    bootstrap_signature(resamples=resamples, seed=seed)  # checks both
    if isinstance(f1_threshold, bool) or not isinstance(f1_threshold, (int, float)) \
            or not 0 <= f1_threshold <= 1:
        raise UsageError(f"'f1_threshold' must be a number from 0 to 1 (got {f1_threshold!r})")


def _check_fits(attempts: pd.DataFrame, judgments, resamples: int) -> None:
    """Refuse, before scoring, a resample count whose bootstrap would not fit in memory
    (every rule of the registry counted: which apply is known only once scored)."""
    counts = {"items": attempts["item"].astype(str).nunique(),
              "systems": attempts["system"].astype(str).nunique(),
              "rules": len(registry.measures()), "judges": len(judgments.judges)}
    what = ", ".join(f"{n:,} {name[:-1] if n == 1 else name}" for name, n in counts.items())
    check_resamples_fit(resamples, agree_bytes(**counts), " and ".join(what.rsplit(", ", 1)))


# --- verdicts -------------------------------------------------------------------------------
def _judged_references(items: Items, attempts: pd.DataFrame, rows: pd.DataFrame,
                       judge: str) -> pd.Series:
    """One judge's verdict on every attempt under ``judged-references`` (NA: not counted).

    The gold answers are built per judged item (a loop over the items the judge judged, not
    over attempts); every attempt is then matched against its item's by the engine at once.
    """
    mine = rows[(rows["judge"] == judge) & rows["verdict"].notna()]
    accepted: dict[str, set[str]] = {}
    rejected: dict[str, set[str]] = {}
    for item, text, verdict in zip(mine["item"], mine["answer"], mine["verdict"].astype(bool)):
        (accepted if verdict else rejected).setdefault(item, set()).add(text)
    # each row's base gold: its own references when it brings some, else its item's
    references = {i.id: tuple(i.references) for i in items.items}
    own = (own_references(attempts[OWN_REFERENCES]).to_pylist()
           if OWN_REFERENCES in attempts.columns else [None] * len(attempts))
    keys = [(item, tuple(refs) if refs else references[item])
            for item, refs in zip(attempts["item"].astype(str), own)]
    judged = [k for k in dict.fromkeys(keys) if k[0] in accepted or k[0] in rejected]
    gold_of = []
    for item, base in judged:
        gold = set(base) | accepted.get(item, set())
        for text in rejected.get(item, ()):
            gold.discard(text)
            gold.discard(text.lower())
        gold_of.append(sorted(gold))
    index = {key: k for k, key in enumerate(judged)}
    row_item = np.array([index.get(key, -1) for key in keys], dtype=np.int64)
    text = attempts["attempt"].astype(str).str.strip()
    out = pd.Series(pd.NA, index=attempts.index, dtype="boolean")
    has_gold = np.array([bool(g) for g in gold_of] + [False])[row_item]  # -1: not judged
    scored = np.flatnonzero((row_item >= 0) & has_gold)
    if len(scored):
        refs = item_tables.item_references(gold_of, row_item[scored])
        values = text.iloc[scored].tolist()
        out.iloc[scored] = engine.squad_exact_match(engine.Attempts(values), refs, "v1.1")
    # nothing left of the gold answers: an attempt the judge rejected (ignoring case, as
    # OpenQA-eval compares) is incorrect, any other is not counted
    empty = np.flatnonzero((row_item >= 0) & ~has_gold)
    if len(empty):
        keys = {f"{item}\x00{t.lower()}" for item, texts in rejected.items() for t in texts}
        probe = attempts["item"].astype(str).iloc[empty] + "\x00" + text.iloc[empty].str.lower()
        hit = probe.isin(keys).to_numpy(dtype=bool)
        out.iloc[empty[hit]] = False
    return out


def judge_verdicts(items: Items, attempts: pd.DataFrame, judgments, *,
                   protocol: str = "direct") -> pd.DataFrame:
    """Each judge's verdict on every attempt (one nullable boolean column per judge, in the
    judgments' order; NA: not judged, or not counted under the protocol)."""
    attempts = attempts.reset_index(drop=True)
    out = pd.DataFrame(index=attempts.index)
    if protocol == "direct":
        for judge in judgments.judges:
            column = pd.Series(pd.NA, index=attempts.index, dtype="boolean")
            mine = judgments.on_attempts[judgments.on_attempts["judge"] == judge]
            column.iloc[mine["attempt"].to_numpy()] = mine["verdict"].to_numpy(dtype=bool)
            out[judge] = column
        return out
    rows = judgments.rows.copy()
    # the answer judged: the text, or (a row keyed by system) that system's attempt
    key = attempts["item"].astype(str) + "\x00" + attempts["system"].astype(str)
    answer_of = pd.Series(attempts["attempt"].astype(str).str.strip().to_numpy(),
                          index=key.to_numpy()).groupby(level=0).first()
    by_system = rows["text"].isna().to_numpy()
    probe = rows["item"].astype(str) + "\x00" + rows["system"].astype(str)
    rows["answer"] = np.where(by_system, probe.map(answer_of).to_numpy(dtype=object),
                              rows["text"].to_numpy(dtype=object))
    for judge in judgments.judges:
        out[judge] = _judged_references(items, attempts, rows, judge)
    return out


def rule_verdicts(scored: pd.DataFrame, *, f1_threshold: float = 0.5) -> dict[str, tuple]:
    """Every measure of the registry defined on every row: ``column -> (values, verdicts)``,
    the measure's values (floats) and, for a graded one, them thresholded at
    ``f1_threshold`` (a binary one is its own verdict). Measures missing on some row (the
    checklist of items without one) are left out."""
    out = {}
    for m in registry.measures():
        if any(c not in scored.columns for c in m.inputs):
            continue
        values = pd.array(m.values(scored), dtype="Float64")
        if len(values) and pd.isna(values).any():
            continue
        numbers = values.to_numpy(dtype=float)
        out[m.column] = (numbers, numbers >= f1_threshold if not m.binary else numbers == 1)
    return out


# --- the bootstrap --------------------------------------------------------------------------
def bootstrap_weights(n_items: int, *, resamples: int, seed: int) -> np.ndarray:
    """How often each item is drawn in each resample: ``(resamples, n_items)`` counts, from
    one index matrix of ``numpy.random.default_rng(seed)`` (drawn a block of whole rows at a
    time, the same indices as at once).

    >>> bootstrap_weights(3, resamples=2, seed=0).sum(axis=1).tolist()
    [3.0, 3.0]
    """
    if n_items == 0:
        return np.zeros((resamples, 0))
    check_resamples_fit(resamples, 8 * n_items, f"{n_items:,} items")
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, n_items))
    step = max(1, _BLOCK_ENTRIES // n_items)  # whole rows at a time: numpy draws the same
    for start in range(0, resamples, step):   # indices in blocks as at once
        rows = min(step, resamples - start)
        index = rng.integers(0, n_items, size=(rows, n_items))
        index += np.arange(rows)[:, None] * n_items
        out[start:start + rows] = np.bincount(index.ravel(), minlength=rows * n_items).reshape(
            rows, n_items)
    return out


def _per_item(values: np.ndarray, item_code: np.ndarray, n_items: int) -> np.ndarray:
    return np.bincount(item_code, weights=values.astype(np.float64), minlength=n_items)


def _bounds(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bounds of each column of ``(resamples, k)`` (NaN resamples ignored)."""
    alpha = 1 - _CONFIDENCE
    if samples.shape[1] == 0:
        return np.zeros(0), np.zeros(0)
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low = np.nanpercentile(samples, 100 * alpha / 2, axis=0)
            high = np.nanpercentile(samples, 100 * (1 - alpha / 2), axis=0)
    return low, high


def _ratio(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1),
                        np.nan)


# --- the tables -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Frame:
    """What every table reads: the scored attempts, item codes, verdicts, weights."""

    scored: pd.DataFrame
    item_code: np.ndarray
    n_items: int
    judges: pd.DataFrame
    rules: dict
    weights: np.ndarray
    reference: str


def systems_table(frame: _Frame) -> pd.DataFrame:
    """``system, measure, n, mean, low, high`` for every system, rule and judge."""
    systems = list(pd.unique(frame.scored["system"].astype(str)))
    system_of = frame.scored["system"].astype(str).to_numpy()
    judged = frame.judges[frame.reference].notna().to_numpy()
    columns, labels = [], []
    for system in systems:
        mine = system_of == system
        for rule, (values, _) in frame.rules.items():
            rows = mine & judged
            columns.append((values, rows))
            labels.append((system, rule))
        for judge in frame.judges.columns:
            verdict = frame.judges[judge]
            rows = mine & verdict.notna().to_numpy()
            columns.append((verdict.fillna(False).to_numpy(dtype=float), rows))
            labels.append((system, judge))
    values = np.stack([v * r for v, r in columns], axis=1) if columns else \
        np.zeros((len(frame.item_code), 0))
    counts = np.stack([_per_item(r, frame.item_code, frame.n_items) for _, r in columns]) \
        if columns else np.zeros((0, frame.n_items))
    # the point and every resample at once, the sums exact (core.exact: token F1's last
    # bits would otherwise follow the BLAS kernel); the counts are whole numbers below 2**53,
    # which any product sums exactly
    weights = np.vstack([np.ones((1, frame.n_items)), frame.weights])
    sums = exact.weighted_sums(weights, values, groups=frame.item_code, n_groups=frame.n_items)
    totals = weights @ counts.T
    ratios = sums.ratio(totals)
    n, mean = totals[0], ratios[0]
    low, high = _bounds(ratios[1:])
    return pd.DataFrame({
        "system": [s for s, _ in labels], "measure": [m for _, m in labels],
        "n": n.astype(np.int64), "mean": mean, "low": np.where(n > 0, low, np.nan),
        "high": np.where(n > 0, high, np.nan)})


_STATISTICS = ("accuracy", "kappa", "precision", "recall")


def _statistics(tp, fp, fn, tn) -> dict[str, np.ndarray]:
    """The four statistics from confusion counts (arrays of any one shape)."""
    n = tp + fp + fn + tn
    rule_yes, judge_yes = tp + fp, tp + fn
    chance = rule_yes * judge_yes + (n - rule_yes) * (n - judge_yes)
    agree = tp + tn
    return {
        "accuracy": _ratio(agree, n),
        "kappa": _ratio(n * agree - chance, np.where(n * n - chance > 0, n * n - chance, 0)),
        "precision": _ratio(tp, rule_yes),
        "recall": _ratio(tp, judge_yes),
    }


def agreement_table(frame: _Frame) -> pd.DataFrame:
    """``rule, judge, n, accuracy, kappa, precision, recall`` and each one's bootstrap
    ``_low``/``_high``: every rule (graded ones thresholded) against every judge."""
    records, cells = [], []
    for rule, (_, verdict) in frame.rules.items():
        for judge in frame.judges.columns:
            truth = frame.judges[judge]
            rows = truth.notna().to_numpy()
            t = truth.fillna(False).to_numpy(dtype=bool)
            r = verdict
            parts = [r & t & rows, r & ~t & rows, ~r & t & rows, ~r & ~t & rows]
            cells.append(np.stack([_per_item(p, frame.item_code, frame.n_items) for p in parts]))
            counts = [float(p.sum()) for p in parts]
            point = {k: float(v) for k, v in _statistics(*counts).items()}
            point["kappa"] = cohen_kappa(r[rows], t[rows])  # the tested routine gives the point
            records.append({"rule": rule, "judge": judge, "n": int(rows.sum()), **point})
    table = pd.DataFrame(records, columns=["rule", "judge", "n", *_STATISTICS])
    if not cells:
        for s in _STATISTICS:
            table[f"{s}_low"], table[f"{s}_high"] = [], []
        return table
    counts = np.stack(cells)  # (pairs, 4, items)
    boot = np.einsum("ri,pci->pcr", frame.weights, counts)  # (pairs, 4, resamples)
    resampled = _statistics(boot[:, 0], boot[:, 1], boot[:, 2], boot[:, 3])
    for s in _STATISTICS:
        low, high = _bounds(resampled[s].T)
        table[f"{s}_low"], table[f"{s}_high"] = low, high
        table.loc[table["n"] == 0, [f"{s}_low", f"{s}_high"]] = np.nan
    return table


def ranking_table(systems: pd.DataFrame, reference: str) -> pd.DataFrame:
    """Per measure: Kendall's tau-b (scipy) between the systems' means under it and under
    ``reference``, and the pairs it orders the other way (``a>b``: a above b under the
    measure, below under the reference), over the systems both measure."""
    wide = systems.pivot(index="system", columns="measure", values="mean").round(TIE_DECIMALS)
    order = list(pd.unique(systems["measure"]))
    records = []
    for measure in order:
        both = wide[list(dict.fromkeys([measure, reference]))].dropna()
        names = both.index.tolist()
        x, y = both[measure].to_numpy(), both[reference].to_numpy()
        if len(names) >= 2:
            result = scipy_stats.kendalltau(x, y, variant="b")
            tau, p = float(result.statistic), float(result.pvalue)
        else:
            tau = p = math.nan
        flipped = []
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                if (x[a] - x[b]) * (y[a] - y[b]) < 0:
                    hi, lo = (names[a], names[b]) if x[a] > x[b] else (names[b], names[a])
                    flipped.append(f"{hi}>{lo}")
        records.append({"measure": measure, "systems": len(names), "tau": tau, "p_value": p,
                        "discordant": len(flipped), "discordant_pairs": ";".join(flipped)})
    return pd.DataFrame(records, columns=["measure", "systems", "tau", "p_value", "discordant",
                                          "discordant_pairs"])


def rank_table(systems: pd.DataFrame) -> pd.DataFrame:
    """``system, measure, mean, rank, tied``: each system's rank (1 = best) under each
    measure; systems whose means are equal to :data:`TIE_DECIMALS` decimals are tied and
    share the best rank of the tie (``tied``). With a ``set`` column, ranked within each set.

    >>> table = pd.DataFrame({"system": ["a", "b", "c"], "measure": "m",
    ...                       "mean": [0.5, 0.5 + 1e-15, 0.7]})
    >>> rank_table(table)[["rank", "tied"]].values.tolist()
    [[2, True], [2, True], [1, False]]
    """
    keys = ["set", "measure"] if "set" in systems.columns else ["measure"]
    out = systems[[*keys[:-1], "system", "measure", "mean"]].copy()
    rounded = out["mean"].round(TIE_DECIMALS)
    out["rank"] = rounded.groupby([out[k] for k in keys]).rank(ascending=False, method="min")
    out["rank"] = out["rank"].astype("Int64")
    out["tied"] = rounded.groupby([out[k] for k in keys]).transform(
        lambda v: v.duplicated(keep=False)).astype(bool)
    return out.reset_index(drop=True)


def annotator_table(judgments, annotators) -> pd.DataFrame:
    """``judges, n, alpha, kappa, percent_agreement``: the named judges together
    (Krippendorff's alpha, nominal, from the ``krippendorff`` package; kappa empty), then each
    pair (Cohen's kappa and alpha), over the things each judged (an item's system or an item's
    answer text). ``n``: things with verdicts from at least two (a pair: both) judges;
    ``percent_agreement``: among those, the share (%) on which every verdict is the same."""
    annotators = list(annotators)
    unknown = [a for a in annotators if a not in judgments.judges]
    if unknown:
        raise UsageError(f"unknown annotator {unknown[0]!r} (judges: "
                         f"{', '.join(judgments.judges)})")
    if len(annotators) < 2:
        raise UsageError(f"'annotators' names at least two judges (got {len(annotators)})")
    rows = judgments.rows[judgments.rows["verdict"].notna()]
    units = pd.Index(pd.unique(rows["unit"]))
    matrix = np.full((len(annotators), len(units)), np.nan)
    for k, judge in enumerate(annotators):
        mine = rows[rows["judge"] == judge]
        matrix[k, units.get_indexer(mine["unit"])] = mine["verdict"].astype(float).to_numpy()

    def describe(sub: np.ndarray) -> tuple[int, float, float]:
        rated = (~np.isnan(sub)).sum(axis=0) >= 2
        sub = sub[:, rated]
        if sub.shape[1] == 0:
            return 0, math.nan, math.nan
        same = np.nanmin(sub, axis=0) == np.nanmax(sub, axis=0)
        values = np.unique(sub[~np.isnan(sub)])
        alpha = math.nan if len(values) < 2 else float(
            krippendorff.alpha(reliability_data=sub, level_of_measurement="nominal"))
        return int(sub.shape[1]), alpha, 100 * float(same.mean())

    n, alpha, agree = describe(matrix)
    records = [{"judges": ",".join(annotators), "n": n, "alpha": alpha, "kappa": math.nan,
                "percent_agreement": agree}]
    for a in range(len(annotators)):
        for b in range(a + 1, len(annotators)):
            pair = matrix[[a, b]]
            both = ~np.isnan(pair).any(axis=0)
            n, alpha, _ = describe(pair)
            x, y = pair[0, both].astype(bool), pair[1, both].astype(bool)
            records.append({"judges": f"{annotators[a]},{annotators[b]}", "n": n,
                            "alpha": alpha, "kappa": cohen_kappa(x, y),
                            "percent_agreement": percent_agreement(x, y)})
    return pd.DataFrame(records, columns=["judges", "n", "alpha", "kappa", "percent_agreement"])


def disagreement_categories(attempts, references, contains, exact, f1) -> np.ndarray:
    """The category of each disagreement, the first of :data:`CATEGORIES` that applies:
    the attempt contains a reference but is not an exact match; digits in a reference (a
    number or a date asked for: digits in the attempt alone say nothing of what was asked);
    no SQuAD token shared (F1 0); else some tokens shared.

    >>> disagreement_categories(["It is Paris", "1972", "Lyon", "west bank", "Rome, 1990"],
    ...     ["Paris", "1973", "Paris", "west drawer", "Paris"], [True] + [False] * 4,
    ...     [False] * 5, [0.5, 0.0, 0.0, 0.5, 0.0]).tolist()  # doctest: +NORMALIZE_WHITESPACE
    ['reference-inside-longer-answer', 'number-or-date', 'no-token-overlap', 'partial-overlap',
     'no-token-overlap']
    """
    digits = pc.match_substring_regex(pa.array(list(references), type=pa.string()),
                                      r"\d").to_numpy(zero_copy_only=False)
    contains, exact, f1 = (np.asarray(contains, dtype=bool), np.asarray(exact, dtype=bool),
                           np.asarray(f1, dtype=float))
    return np.select([contains & ~exact, digits, f1 == 0],
                     list(CATEGORIES[:3]), default=CATEGORIES[3]).astype(object)


def disagreement_table(frame: _Frame, items: Items) -> pd.DataFrame:
    """Every attempt the reference judge judged where a rule disagrees with it: ``rule,
    item, system, rule_verdict, judge_verdict, category``, the attempt's token F1, its text
    and the item's references (alternatives joined by " | "), in rule order, then the
    attempts' order."""
    scored = frame.scored
    refs = {i.id: " | ".join(i.references) for i in items.items}
    truth = frame.judges[frame.reference]
    judged = truth.notna().to_numpy()
    t = truth.fillna(False).to_numpy(dtype=bool)
    parts = []
    f1_column = registry.TokenF1.column
    f1 = scored[f1_column].to_numpy(dtype=float)
    contains = scored[registry.Contains.column].to_numpy(dtype=bool)
    exact = scored[registry.SquadExactMatch.column].to_numpy(dtype=bool)
    reference_text = scored["item"].astype(str).map(refs).to_numpy(dtype=object)
    for rule, (_, verdict) in frame.rules.items():
        rows = np.flatnonzero(judged & (verdict != t))
        parts.append(pd.DataFrame({
            "rule": rule,
            "item": scored["item"].astype(str).to_numpy(dtype=object)[rows],
            "system": scored["system"].astype(str).to_numpy(dtype=object)[rows],
            "rule_verdict": verdict[rows],
            "judge_verdict": t[rows],
            "category": disagreement_categories(
                scored["attempt"].astype(str).to_numpy(dtype=object)[rows],
                reference_text[rows], contains[rows], exact[rows], f1[rows]),
            f1_column: f1[rows],
            "attempt": scored["attempt"].astype(str).to_numpy(dtype=object)[rows],
            "references": reference_text[rows],
        }))
    columns = ["rule", "item", "system", "rule_verdict", "judge_verdict", "category",
               f1_column, "attempt", "references"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(
        columns=columns)


@dataclass(frozen=True, repr=False)
class MetaEvaluation:
    """The five tables, the signature, what was counted, and ``rule_signatures``: the rules'
    and their normalizers' (:func:`recallscore_nb.core.registry.signatures`)."""

    systems: pd.DataFrame
    agreement: pd.DataFrame
    ranking: pd.DataFrame
    annotators: pd.DataFrame | None
    disagreements: pd.DataFrame
    signature: str
    bootstrap: str
    counts: dict = field(default_factory=dict)
    panel: pd.DataFrame | None = None
    """Each rule and judge beside the annotators (:mod:`.annotator_panel`); None when fewer
    than two annotators were compared."""
    panel_pairs: pd.DataFrame | None = None
    rule_signatures: tuple[str, ...] = ()

    def __repr__(self) -> str:
        c = self.counts
        lines = [self.signature, self.bootstrap,
                 f"{c.get('judged', 0)} of {c.get('attempts', 0)} attempts judged by the "
                 f"reference judge ({c.get('unjudged', 0)} unjudged)",
                 f"systems: {', '.join(map(str, pd.unique(self.systems['system'])))}"]
        for judge, n in c.get("empty", {}).items():
            if n:
                lines.append(f"judge {judge}: {n} empty verdicts")
        for judge, n in c.get("unmatched", {}).items():
            if n:
                lines.append(f"judge {judge}: {n} verdicts on answers no system here gave")
        return "\n".join(lines)

    TABLES = ("systems", "agreement", "ranking", "annotators", "panel", "panel_pairs",
              "disagreements")
    """Every table :meth:`tables` may hold, by file stem: the members of ``agree``'s set."""

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables by file stem, in :data:`TABLES`' order; ``annotators`` and the panel
        only when they were asked for."""
        return {name: getattr(self, name) for name in self.TABLES
                if getattr(self, name) is not None}


def meta_evaluate(items: Items, attempts: pd.DataFrame, judgments, *,
                  reference_judge: str = "human", annotators=(), protocol: str = "direct",
                  seed: int = 0, resamples: int = 2000,
                  f1_threshold: float = 0.5) -> MetaEvaluation:
    """Score the attempts with every rule and compare them with the judges.

    ``attempts`` has ``item``, ``system`` and ``attempt`` columns, ``judgments`` is what
    :func:`recallscore_nb.io.judgments.load_judgments` read for them.
    """
    _check(protocol, resamples, seed, f1_threshold)
    if reference_judge not in judgments.judges:
        raise UsageError(f"unknown reference judge {reference_judge!r} (judges: "
                         f"{', '.join(judgments.judges)})")
    attempts = attempts.reset_index(drop=True)
    _check_fits(attempts, judgments, resamples)
    scored = score_items(items, attempts[["item", "system", "attempt", *[
        c for c in (OWN_REFERENCES,) if c in attempts.columns]]])
    judges = judge_verdicts(items, attempts, judgments, protocol=protocol)
    codes, uniques = pd.factorize(scored["item"].astype(str), sort=True)  # any row order
    weights = bootstrap_weights(len(uniques), resamples=resamples, seed=seed)
    frame = _Frame(scored, codes.astype(np.int64), len(uniques), judges,
                   rule_verdicts(scored, f1_threshold=f1_threshold), weights, reference_judge)
    systems = systems_table(frame)
    judged = judges[reference_judge].notna()
    mutual = annotator_table(judgments, annotators) if annotators else None  # names checked
    panel = pairs = None
    if len(annotators) >= 2:
        others = [j for j in judgments.judges if j != reference_judge]
        panel, pairs = panel_tables(judges, {c: v for c, (_, v) in frame.rules.items()},
                                    annotators, others)
    counts = {
        "attempts": len(scored),
        "judged": int(judged.sum()),
        "unjudged": int((~judged).sum()),
        "empty": judgments.empty(),
        "unmatched": judgments.unmatched,
    }
    return MetaEvaluation(
        systems=systems,
        agreement=agreement_table(frame),
        ranking=ranking_table(systems, reference_judge),
        annotators=mutual,
        disagreements=disagreement_table(frame, items),
        signature=agree_signature(protocol=protocol, reference_judge=reference_judge,
                                  f1_threshold=f1_threshold, resamples=resamples, seed=seed),
        bootstrap=bootstrap_signature(resamples=resamples, seed=seed, unit="item"),
        counts=counts,
        panel=panel,
        panel_pairs=pairs,
        rule_signatures=tuple(signatures("v1.1")),  # what score_items scored with
    )
