"""Agreement between the rules, and each rule against the fixtures' facts-complete label.

Pure: takes the table :func:`~recallscore_nb.core.scoring.score_benchmark` returns (and, for the
explanations, the benchmark), returns DataFrames; opens no file, draws nothing.

Which rules are binary and which graded is the rule registry's to say
(:mod:`recallscore_nb.core.rules`): the binary measures (literal match, normalized match,
SQuAD exact match, the checklist's full match) are compared pairwise and against the label;
the graded ones (token F1, the checklist's partial credit) are shown beside them as means.

Undefined values are a policy, not an accident: they are NaN, and :func:`na_as_text` shows
them as ``n/a``.

- Cohen's kappa is undefined when the chance agreement is 1, which happens exactly when both
  raters give one and the same label to every row (and for no rows at all).
- Percent agreement is undefined for no rows.
- Precision is undefined when the rule passes no labelled row; recall when no labelled row
  is facts-complete; a mean when its group is empty.
- Rows without a ``fixtureFactsComplete`` label are left out of precision, recall and the
  means, and counted (``unlabelled``).

>>> cohen_kappa([True, True, False, False], [True, False, False, False])
0.5
>>> percent_agreement([True, True, False, False], [True, False, False, False])
75.0
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd

from ..core.exact import exact_mean
from ..core import rules as registry
from ..core.normalize import SEED
from ..core.tokens import term_occurs

__all__ = [
    "NA_TEXT",
    "binary_rules",
    "percent_agreement",
    "cohen_kappa",
    "facts_complete_labels",
    "side_by_side",
    "agreement_table",
    "label_counts",
    "precision_recall_table",
    "first_difference",
    "token_diff",
    "disagreements",
    "na_as_text",
]


def binary_rules() -> dict[str, str]:
    """Score column → rule name, for the registry's binary measures, in output order: what
    the tables here compare by default.

    >>> list(binary_rules().values()) == [m.name for m in registry.measures() if m.binary]
    True
    """
    return {m.column: m.name for m in registry.binary_measures()}


NA_TEXT = "n/a"
"""How an undefined value (NaN, a missing label) is shown."""


def _binary(values, what: str) -> np.ndarray:
    array = np.asarray(values)
    if array.size == 0:
        return array.astype(bool)
    if array.dtype != bool:
        raise TypeError(f"'{what}' must hold booleans (got dtype {array.dtype})")
    return array


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = _binary(a, "a"), _binary(b, "b")
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"'a' and 'b' must be 1-d and aligned "
                         f"(got shapes {a.shape} and {b.shape})")
    return a, b


def percent_agreement(a, b) -> float:
    """The percentage (0–100) of rows on which two binary raters agree; NaN for no rows.

    >>> percent_agreement([True, False, False], [True, True, False])  # 2 of 3
    66.66666666666667
    >>> percent_agreement([], [])
    nan
    """
    a, b = _pair(a, b)
    if len(a) == 0:
        return float("nan")
    return 100 * int(np.sum(a == b)) / len(a)


def cohen_kappa(a, b, *, undefined: float = float("nan")) -> float:
    """Cohen's kappa of two binary raters: (p_o - p_e) / (1 - p_e).

    ``p_o`` is the observed agreement and ``p_e`` the agreement expected by chance from
    each rater's own pass rate. Computed on counts, so the only rounding is the final
    division: with ``n`` rows, ``k = (n·agree - S) / (n² - S)`` where
    ``S = passes_a·passes_b + fails_a·fails_b``.

    Parameters
    ----------
    a, b : sequence of bool
        The two raters' verdicts, aligned.
    undefined : float, keyword-only
        What to return when kappa is undefined (``p_e = 1``: both raters give one and the
        same label to every row, or there are no rows). NaN by default, shown as ``n/a``.

    Examples
    --------
    >>> cohen_kappa([True, False, False, False], [True, True, True, True])  # 1 row agrees
    0.0
    >>> cohen_kappa([True, True], [True, True])  # both constant and equal: undefined
    nan
    >>> cohen_kappa([True, True], [False, False])  # both constant, always disagreeing
    0.0
    """
    a, b = _pair(a, b)
    n = len(a)
    pass_a, pass_b = int(a.sum()), int(b.sum())
    chance = pass_a * pass_b + (n - pass_a) * (n - pass_b)
    if n == 0 or chance == n * n:
        return undefined
    agree = int(np.sum(a == b))
    return (n * agree - chance) / (n * n - chance)


def facts_complete_labels(benchmark) -> pd.Series:
    """Each row's ``fixtureFactsComplete`` label (nullable boolean; NA where absent).

    >>> from recallscore_nb import load_benchmark
    >>> facts_complete_labels(load_benchmark()).sum()
    np.int64(8)
    """
    values = [row.expected.get("fixtureFactsComplete") for row in benchmark.rows]
    return pd.Series(pd.array(values, dtype="boolean"), name="facts_complete")


def _aligned_labels(scores: pd.DataFrame, labels) -> pd.Series:
    labels = pd.Series(pd.array(list(labels), dtype="boolean"), name="facts_complete")
    if len(labels) != len(scores):
        raise ValueError(f"'labels' must align with the scores "
                         f"({len(scores)} rows; got {len(labels)})")
    return labels


def _with_text_labels(labels: pd.Series) -> pd.Series:
    return labels.astype(object).where(labels.notna(), NA_TEXT).rename("facts_complete")


def side_by_side(scores: pd.DataFrame, labels) -> pd.DataFrame:
    """Every measure of every rule for every row side by side, with the facts-complete label.

    Columns: ``id``, ``condition``, each measure of the registry in output order under its
    name (a rule's own verdict under the rule's name), a derived measure preceded by the
    columns it is computed from, and ``facts_complete`` (``n/a`` where the row has no label).

    >>> from recallscore_nb import load_benchmark, score_benchmark
    >>> b = load_benchmark()
    >>> table = side_by_side(score_benchmark(b), facts_complete_labels(b))
    >>> table.loc[7:8, ["id", "normalized", "checklist", "facts_complete"]]
        id  normalized  checklist facts_complete
    7  R08       False       True           True
    8  R09       False      False          False
    """
    labels = _aligned_labels(scores, labels)
    columns = {"id": scores["id"].to_numpy(dtype=object), "condition": _conditions(scores)}
    for measure in registry.measures():
        if measure.derive is not None:
            columns.update({c: scores[c].to_numpy() for c in measure.reads})
        columns[measure.name] = measure.values(scores)
    columns["facts_complete"] = _with_text_labels(labels).to_numpy()
    return pd.DataFrame(columns)


def _conditions(scores: pd.DataFrame) -> np.ndarray:
    if "condition" not in scores:
        return np.full(len(scores), "", dtype=object)
    return scores["condition"].astype(object).where(scores["condition"].notna(), "").to_numpy()


def agreement_table(scores: pd.DataFrame, rules: dict[str, str] | None = None) -> pd.DataFrame:
    """Every pair of binary rules: the 2×2 counts, percent agreement and Cohen's kappa.

    Parameters
    ----------
    scores : DataFrame
        The rules' columns, as :func:`~recallscore_nb.core.scoring.score_benchmark` returns.
    rules : dict, optional
        Score column → rule name; :func:`binary_rules` by default.

    Returns
    -------
    DataFrame
        ``rule_a, rule_b, rows, both_pass, only_a, only_b, both_fail, agreement_pct, kappa``.

    Examples
    --------
    >>> t = agreement_table(pd.DataFrame({"x": [True, True, False], "y": [True, False, False]}),
    ...                     {"x": "x", "y": "y"})
    >>> t[["rule_a", "rule_b", "both_pass", "only_a", "agreement_pct", "kappa"]]
      rule_a rule_b  both_pass  only_a  agreement_pct  kappa
    0      x      y          1       1      66.666667    0.4

    (kappa: n = 3, agree = 2, S = 2·1 + 1·2 = 4, so (3·2 - 4) / (3² - 4) = 2/5.)
    """
    rules = binary_rules() if rules is None else rules
    records = []
    for col_a, col_b in combinations(rules, 2):
        a = _binary(scores[col_a].to_numpy(), col_a)
        b = _binary(scores[col_b].to_numpy(), col_b)
        records.append({
            "rule_a": rules[col_a],
            "rule_b": rules[col_b],
            "rows": len(a),
            "both_pass": int(np.sum(a & b)),
            "only_a": int(np.sum(a & ~b)),
            "only_b": int(np.sum(~a & b)),
            "both_fail": int(np.sum(~a & ~b)),
            "agreement_pct": percent_agreement(a, b),
            "kappa": cohen_kappa(a, b),
        })
    columns = ["rule_a", "rule_b", "rows", "both_pass", "only_a", "only_b", "both_fail",
               "agreement_pct", "kappa"]
    return pd.DataFrame.from_records(records, columns=columns)


def label_counts(scores: pd.DataFrame, labels, rules: dict[str, str] | None = None) -> pd.DataFrame:
    """Per binary rule: how many facts-complete and facts-incomplete fixtures it passes.

    Returns ``rule, complete_pass, complete_total, incomplete_pass, incomplete_total,
    unlabelled``; rows without a label are counted in ``unlabelled`` and nowhere else.
    ``rules`` maps score columns to rule names (:func:`binary_rules` by default).

    >>> s = pd.DataFrame({"x": [True, False, True, True]})
    >>> label_counts(s, [True, True, False, None], {"x": "x"}).iloc[0].to_dict()
    {'rule': 'x', 'complete_pass': 1, 'complete_total': 2, 'incomplete_pass': 1, 'incomplete_total': 1, 'unlabelled': 1}
    """
    rules = binary_rules() if rules is None else rules
    known, complete, incomplete = _groups(_aligned_labels(scores, labels))
    records = []
    for column, name in rules.items():
        passes = _binary(scores[column].to_numpy(), column)
        records.append({
            "rule": name,
            "complete_pass": int(np.sum(passes & complete)),
            "complete_total": int(complete.sum()),
            "incomplete_pass": int(np.sum(passes & incomplete)),
            "incomplete_total": int(incomplete.sum()),
            "unlabelled": int((~known).sum()),
        })
    return pd.DataFrame.from_records(records, columns=[
        "rule", "complete_pass", "complete_total", "incomplete_pass", "incomplete_total",
        "unlabelled"])


def _groups(labels: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(labelled, facts-complete, facts-incomplete) row masks."""
    known = labels.notna().to_numpy(dtype=bool)
    complete = labels.fillna(False).to_numpy(dtype=bool)
    return known, complete, known & ~complete


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def _mean(values: np.ndarray) -> float:
    return exact_mean(values)  # NaN for none; any order of the rows


def precision_recall_table(scores: pd.DataFrame, labels, *, rules: dict[str, str] | None = None,
                           extra_graded: tuple[str, ...] = ()) -> pd.DataFrame:
    """Each binary rule's precision and recall against the facts-complete label, with the
    graded scores' means beside them.

    A row "passes" a binary rule when the rule says so; it is a true positive when it is
    also labelled facts-complete. Unlabelled rows are excluded and counted.

    Returns
    -------
    DataFrame
        ``rule, kind, labelled, unlabelled, tp, fp, fn, tn, precision, recall,
        mean_complete, mean_incomplete``: one row per binary rule, then the registry's
        graded measures (by name) and the ``extra_graded`` score columns (kind ``graded``:
        counts NA, precision and recall NaN). ``rules`` maps binary score columns to rule
        names (:func:`binary_rules` by default). The means
        are the mean score over facts-complete and over facts-incomplete rows (for a binary
        rule, its pass rate).

    Examples
    --------
    >>> from recallscore_nb import load_benchmark, score_benchmark
    >>> b = load_benchmark()
    >>> t = precision_recall_table(score_benchmark(b), facts_complete_labels(b))
    >>> t[["rule", "tp", "fp", "fn", "tn", "precision", "recall"]].head(2)
             rule  tp  fp  fn  tn  precision  recall
    0     literal   1   0   7   4        1.0   0.125
    1  normalized   4   0   4   4        1.0   0.500
    """
    known, complete, incomplete = _groups(_aligned_labels(scores, labels))
    records = []
    for column, name in (binary_rules() if rules is None else rules).items():
        passes = _binary(scores[column].to_numpy(), column)
        tp = int(np.sum(passes & complete))
        fp = int(np.sum(passes & incomplete))
        fn = int(np.sum(~passes & complete))
        tn = int(np.sum(~passes & incomplete))
        records.append({
            "rule": name, "kind": "binary", "labelled": int(known.sum()),
            "unlabelled": int((~known).sum()), "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": _ratio(tp, tp + fp), "recall": _ratio(tp, tp + fn),
            "mean_complete": _mean(passes[complete].astype(float)),
            "mean_incomplete": _mean(passes[incomplete].astype(float)),
        })
    graded = {m.name: m.values(scores).astype(float) for m in registry.measures()
              if not m.binary}
    graded.update({column: scores[column].to_numpy(dtype=float) for column in extra_graded})
    for name, values in graded.items():
        records.append({
            "rule": name, "kind": "graded", "labelled": int(known.sum()),
            "unlabelled": int((~known).sum()),
            "tp": None, "fp": None, "fn": None, "tn": None,
            "precision": np.nan, "recall": np.nan,
            "mean_complete": _mean(values[complete]),
            "mean_incomplete": _mean(values[incomplete]),
        })
    table = pd.DataFrame.from_records(records)
    return table.astype({c: "Int64" for c in ("tp", "fp", "fn", "tn")})


# --- why rules disagree ------------------------------------------------------------------
def _show(item) -> str:
    return "end" if item is None else repr(item)


def first_difference(attempt: Sequence, reference: Sequence, *, unit: str = "token") -> str:
    """The first position where two sequences differ, as ``<unit> i: attempt vs reference``.

    Positions count from 0; a sequence that ends first shows ``end``. Empty when equal.

    >>> first_difference(["copper", "token"], ["silver", "token"])
    "token 0: 'copper' vs 'silver'"
    >>> first_difference("ab", "abc", unit="char")
    "char 2: end vs 'c'"
    >>> first_difference(["a"], ["a"])
    ''
    """
    for i in range(max(len(attempt), len(reference))):
        x = attempt[i] if i < len(attempt) else None
        y = reference[i] if i < len(reference) else None
        if x != y:
            return f"{unit} {i}: {_show(x)} vs {_show(y)}"
    return ""


def token_diff(attempt: Sequence[str], reference: Sequence[str]) -> str:
    """A compact token diff: ``+[…]`` only in the attempt, ``-[…]`` only in the reference.

    Built with :class:`difflib.SequenceMatcher` (autojunk off); empty when equal.

    >>> token_diff("the east drawer".split(), "the west drawer".split())
    '-[west] +[east]'
    >>> token_diff("please the token".split(), "the token".split())
    '+[please]'
    """
    matcher = difflib.SequenceMatcher(a=list(reference), b=list(attempt), autojunk=False)
    parts = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("replace", "delete"):
            parts.append(f"-[{' '.join(reference[i1:i2])}]")
        if op in ("replace", "insert"):
            parts.append(f"+[{' '.join(attempt[j1:j2])}]")
    return " ".join(parts)


def _missing_terms(text: str, facts) -> str:
    normalized = SEED(text)
    missing = []
    for fact in facts:
        terms = [term for term, norm in zip(fact.terms, fact.normalized_terms)
                 if not term_occurs(normalized, norm)]
        if terms:
            missing.append(f"{fact.name}: {', '.join(terms)}")
    return "; ".join(missing)


def disagreements(benchmark, scores: pd.DataFrame) -> pd.DataFrame:
    """The rows on which the binary rules disagree, and why.

    Returns ``id, condition, passing, failing, missing_terms, token_diff,
    first_difference``: the rules that pass and fail; each missing fact with the terms of
    it the attempt lacks (``fact: term``); the token diff of the seed-normalized attempt
    against the seed-normalized reference (see :func:`token_diff`); and the first
    differing token, or, when the normalized strings are equal, the first differing
    character of the raw strings.

    Examples
    --------
    >>> from recallscore_nb import load_benchmark, score_benchmark
    >>> b = load_benchmark()
    >>> t = disagreements(b, score_benchmark(b))
    >>> row = t.loc[t["id"] == "R02"].iloc[0]
    >>> row["failing"], len(row["passing"].split(", "))
    ('literal', 5)
    >>> t.loc[t["id"] == "R02", "first_difference"].iloc[0]
    "equal after seed normalization; raw char 1: 'H' vs 'h'"
    """
    rules = binary_rules()
    verdicts = np.column_stack([_binary(scores[c].to_numpy(), c) for c in rules])
    split = verdicts.any(axis=1) & ~verdicts.all(axis=1)
    reference = benchmark.reference
    ref_tokens = SEED(reference).split(" ") if SEED(reference) else []
    conditions = _conditions(scores)
    records = []
    for i in np.flatnonzero(split):
        attempt = str(scores["attempt"].iloc[i])
        normalized = SEED(attempt)
        tokens = normalized.split(" ") if normalized else []
        if tokens == ref_tokens:
            raw = first_difference(attempt, reference, unit="char") or "identical"
            why = f"equal after seed normalization; raw {raw}"
        else:
            why = first_difference(tokens, ref_tokens)
        names = list(rules.values())
        records.append({
            "id": str(scores["id"].iloc[i]),
            "condition": conditions[i],
            "passing": ", ".join(n for n, v in zip(names, verdicts[i]) if v),
            "failing": ", ".join(n for n, v in zip(names, verdicts[i]) if not v),
            "missing_terms": _missing_terms(attempt, benchmark.facts) or "none",
            "token_diff": token_diff(tokens, ref_tokens) or "none",
            "first_difference": why,
        })
    return pd.DataFrame.from_records(records, columns=[
        "id", "condition", "passing", "failing", "missing_terms", "token_diff",
        "first_difference"])


def na_as_text(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A copy whose missing cells in ``columns`` read ``n/a``.

    By default every float column and every column holding a missing value. Those columns
    become object columns holding numbers and ``"n/a"``, so tables keep their number
    formatting for the defined values.

    >>> na_as_text(pd.DataFrame({"kappa": [0.5, float("nan")]}))["kappa"].tolist()
    [0.5, 'n/a']
    """
    out = frame.copy()
    if columns is None:
        columns = [c for c in out.columns
                   if pd.api.types.is_float_dtype(out[c]) or out[c].isna().any()]
    for column in columns:
        values = out[column].astype(object)
        out[column] = values.where(out[column].notna(), NA_TEXT)
    return out
