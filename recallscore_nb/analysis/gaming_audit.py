"""The gaming audit: how often each rule accepts answers no person would accept.

:func:`gaming_answers` writes, for every item of an items file, answers of the gaming
families (:mod:`~recallscore_nb.analysis.gaming_families`) built from the file alone, drawn
with ``numpy.random.default_rng([seed, crc32(family name)])``: the same items and seed give
the same answers byte for byte, and a family's answers do not depend on which other families
are drawn. :func:`gaming_audit` scores them, all at once, under every rule (or those given:
names of :data:`~recallscore_nb.core.rules.RULES`, or :class:`~recallscore_nb.core.rules.Rule`
values such as ``Equivalent(guards=("negation", "candidates"))``), each answer against its
own item's references, and reports per binary measure and family the share accepted, with a
95 % Wilson interval (``scipy.stats.binomtest``), and three examples. A graded measure without
a binary form (token F1) is reported thresholded at ``f1_threshold``, its label the column's
name and ``>=0.5``; the checklist's full match only over items that have a checklist (none,
in the shipped judged sets: it is then left out and named in ``skipped``).

>>> from recallscore_nb.core.items import Item, Items
>>> items = Items("demo", "", tuple(Item(f"q{i}", (city,), None) for i, city in
...               enumerate(["Paris", "Lyon", "Nice", "Oslo", "Rome", "Bern", "Kyiv", "Riga",
...                          "Baku", "Lima", "Quito", "Accra", "Hanoi", "1983"])))
>>> audit = gaming_audit(items, rules=["contains"], families=["list", "refusal"])
>>> audit.shares[["rule", "family", "n", "accepted"]].values.tolist()
[['contains', 'list', 14, 14], ['contains', 'refusal', 14, 0]]
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core import engine, rules as registry
from ..core.errors import UsageError
from ..core.items import Items
from ..core.registry import normalizer_signatures
from ..core.rules import Rule, Target
from ..core.scoring import prepare_items
from .gaming_families import Draw, family_named, words

__all__ = ["gaming_answers", "gaming_audit", "GamingAudit", "resolve_gaming_rules",
           "wilson_interval", "SHARE_COLUMNS", "EXAMPLES"]

SHARE_COLUMNS = ["rule", "family", "n", "accepted", "share", "low", "high"]
EXAMPLES = 3
"""Examples per rule and family: accepted ones when there are any, else refused ones."""
REDRAWS = 5
"""Draws per wanted answer before an item gets fewer than ``per_item`` distinct answers."""


def _family_rng(seed: int, name: str) -> np.random.Generator:
    return np.random.default_rng([int(seed), zlib.crc32(name.encode("utf-8"))])


def gaming_answers(items: Items, seed: int = 0, per_item: int = 1, families=None,
                   questions: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Every gaming answer for every item: ``id`` (``<item>#<family>#<k>``), ``item``,
    ``family``, ``answer``.

    Parameters
    ----------
    items : Items
        What :func:`recallscore_nb.io.items.load_items` returns.
    seed : int
        Seeds every draw; the same items and seed give the same frame.
    per_item : int
        Distinct answers per item and family (fewer when the family cannot make so many).
    families : sequence of str, optional
        Family names (default: every family of
        :data:`~recallscore_nb.analysis.gaming_families.GAMING_FAMILIES`; ``echo`` only when
        ``questions`` are given, else it is left out; asked for by name without them, a
        :class:`UsageError`).
    questions : mapping, optional
        Item id -> question (:func:`recallscore_nb.io.items.load_questions`).

    Returns
    -------
    DataFrame
        One row per answer, by family, then item in file order.

    Examples
    --------
    >>> from recallscore_nb.core.items import Item, Items
    >>> items = Items("demo", "", (Item("a", ("Paris",), None), Item("b", ("Lyon",), None),
    ...                            Item("c", ("7 km",), None)))
    >>> gaming_answers(items, families=["other-item", "quantity"]).answer.tolist()
    ['7 km.', 'The answer is 7 km.', 'Paris', '7 miles']
    >>> gaming_answers(items, seed=1).equals(gaming_answers(items, seed=1))
    True
    """
    if isinstance(per_item, bool) or not isinstance(per_item, (int, np.integer)) or per_item < 1:
        raise UsageError(f"'per_item' must be a whole number >= 1 (got {per_item!r})")
    chosen = family_named(families)
    if questions is None:
        if families is not None and any(f.needs == "question" for f in chosen):
            raise UsageError("the echo family needs the items' questions (the items file has "
                             "none, or none were given)")
        chosen = tuple(f for f in chosen if f.needs != "question")
    pool = [item.references for item in items.items]
    own = [[frozenset(words(r)) for r in refs] for refs in pool]
    rows: list[tuple[str, str, str, str]] = []
    for family in chosen:
        rng = _family_rng(seed, family.name)
        for i, item in enumerate(items.items):
            draw = Draw(i, item.references, (questions or {}).get(item.id), pool, own[i], rng)
            made: list[str] = []
            for _ in range(per_item * REDRAWS):
                if len(made) == per_item:
                    break
                answer = family.build(draw)
                if answer is None:
                    break
                if answer.strip() and answer not in made:
                    made.append(answer)
            rows += [(f"{item.id}#{family.name}#{k}", item.id, family.name, text)
                     for k, text in enumerate(made)]
    frame = pd.DataFrame(rows, columns=["id", "item", "family", "answer"])
    return frame.astype(engine.STRING)


def resolve_gaming_rules(rules=None, *, squad_mode: str = "v1.1") -> list[Rule]:
    """The rules to audit: None every rule (:func:`~recallscore_nb.core.rules.rules_for`);
    else each a name of :data:`~recallscore_nb.core.rules.RULES` or a :class:`Rule`.

    >>> [r.name for r in resolve_gaming_rules(["contains", "literal"])]
    ['contains', 'literal']
    >>> resolve_gaming_rules(["exact"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: unknown rule 'exact' (rules: literal, normalized, ...)
    """
    every = {r.name: r for r in registry.rules_for(squad_mode)}
    if rules is None:
        return list(every.values())
    out = []
    for rule in [rules] if isinstance(rules, (str, Rule)) else list(rules):
        if isinstance(rule, Rule):
            out.append(rule)
        elif rule in every:
            out.append(every[rule])
        else:
            raise UsageError(f"unknown rule {rule!r} (rules: {', '.join(registry.RULES)})")
    if not out:
        raise UsageError("'rules' must name at least one rule (got none)")
    return out


def wilson_interval(accepted: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of ``accepted`` of ``n`` (scipy's ``binomtest``).

    >>> [round(x, 4) for x in wilson_interval(0, 20)], [round(x, 4) for x in wilson_interval(5, 10)]
    ([0.0, 0.1611], [0.2366, 0.7634])
    """
    from scipy.stats import binomtest

    ci = binomtest(int(accepted), int(n)).proportion_ci(confidence_level=confidence,
                                                         method="wilson")
    return float(ci.low), float(ci.high)


@dataclass
class GamingAudit:
    """What :func:`gaming_audit` found: the ``answers`` (:func:`gaming_answers`), each
    answer's ``verdicts`` (one nullable boolean column per measure, missing where it is
    undefined), the ``shares`` (:data:`SHARE_COLUMNS`), the ``examples``, the rules'
    ``signatures`` (measure -> the signature of its rule), and ``skipped`` (what was left
    out, and why)."""

    answers: pd.DataFrame
    verdicts: pd.DataFrame
    shares: pd.DataFrame
    examples: pd.DataFrame
    signatures: dict[str, str]
    seed: int
    per_item: int
    f1_threshold: float
    skipped: list[str] = field(default_factory=list)
    normalizer_signatures: list[str] = field(default_factory=list)
    """The signatures of the normalizers the measures' rules compare under."""

    def share_table(self) -> pd.DataFrame:
        """The shares as percentages, a row per measure and a column per family, the last
        row the answers per family (``n``).

        >>> from recallscore_nb.core.items import Item, Items
        >>> items = Items("d", "", (Item("a", ("Paris",), None), Item("b", ("Lyon",), None)))
        >>> gaming_audit(items, rules=["contains"], families=["hedge"]).share_table()
        family    hedge
        rule
        contains  100.0
        n           2.0
        """
        table = self.shares.pivot(index="rule", columns="family", values="share") * 100
        order = list(dict.fromkeys(self.shares["family"]))
        table = table.reindex(index=list(dict.fromkeys(self.shares["rule"])), columns=order)
        counts = self.shares.groupby("family", sort=False)["n"].max().reindex(order)
        table.loc["n"] = counts.astype(float)
        return table.round(1)


def _measures(rules_: Sequence[Rule], f1_threshold: float) -> list[tuple[str, Rule, object]]:
    """(label, rule, measure) of each binary measure and each graded one that is not derived
    (thresholded); a label given twice gets ``[k]``, k the rule's place."""
    picked = []
    for k, rule in enumerate(rules_):
        for m in rule.measures:
            if m.binary:
                picked.append((m.column, k, rule, m))
            elif m.derive is None:
                picked.append((f"{m.column}>={f1_threshold:g}", k, rule, m))
    labels = [p[0] for p in picked]
    return [(f"{label}[{k}]" if labels.count(label) > 1 else label, rule, m)
            for label, k, rule, m in picked]


def _verdicts(items: Items, answers: pd.DataFrame, rules_, f1_threshold) -> tuple[pd.DataFrame, dict]:
    prepared = prepare_items(items)
    row_item = prepared.rows_of(answers["item"])
    attempts = engine.Attempts(pa.array(answers["answer"].tolist(), type=pa.string()))
    target = Target(references=prepared.references.for_rows(row_item),
                    checklists=prepared.checklists, row_item=row_item)
    computed: dict[int, pd.DataFrame] = {}
    out, signatures = {}, {}
    for label, rule, m in _measures(rules_, f1_threshold):
        if id(rule) not in computed:
            computed[id(rule)] = pd.DataFrame(rule.compute(attempts, target))
        values = pd.array(m.values(computed[id(rule)]), dtype="Float64")
        out[label] = values == 1 if m.binary else values >= f1_threshold
        signatures[label] = rule.signature()
    return pd.DataFrame(out, index=answers.index), signatures


def _shares(answers: pd.DataFrame, verdicts: pd.DataFrame, skipped: list) -> pd.DataFrame:
    rows = []
    families = list(dict.fromkeys(answers["family"]))
    for label in verdicts.columns:
        defined = verdicts[label].notna().to_numpy()
        if not defined.any():
            skipped.append(f"{label}: undefined for every answer (no item has a checklist)")
            continue
        for family in families:
            mask = (answers["family"] == family).to_numpy() & defined
            n = int(mask.sum())
            if n == 0:
                continue
            accepted = int(verdicts[label].to_numpy(dtype=bool, na_value=False)[mask].sum())
            rows.append((label, family, n, accepted, accepted / n, *wilson_interval(accepted, n)))
    return pd.DataFrame(rows, columns=SHARE_COLUMNS)


def _examples(items: Items, answers, verdicts, shares, seed: int) -> pd.DataFrame:
    refs = {item.id: json.dumps(list(item.references), ensure_ascii=False) for item in items.items}
    rows = []
    for label, family in shares[["rule", "family"]].itertuples(index=False):
        said = verdicts[label].to_numpy(dtype=bool, na_value=False)
        defined = verdicts[label].notna().to_numpy()
        mask = (answers["family"] == family).to_numpy() & defined
        accepted = mask & said
        chosen = np.flatnonzero(accepted if accepted.any() else mask)
        rng = np.random.default_rng([int(seed), zlib.crc32(f"{label}|{family}".encode())])
        picked = np.sort(rng.choice(chosen, size=min(EXAMPLES, len(chosen)), replace=False))
        for row in picked:
            item = answers["item"].iat[row]
            rows.append((label, family, item, answers["answer"].iat[row], refs[item],
                         bool(said[row]), "accepted" if said[row] else "refused"))
    return pd.DataFrame(rows, columns=["rule", "family", "item", "answer", "references",
                                       "accepted", "verdict"])


def gaming_audit(items: Items, rules=None, seed: int = 0, per_item: int = 1, families=None,
                 questions: Mapping[str, str] | None = None, *, f1_threshold: float = 0.5,
                 squad_mode: str = "v1.1") -> GamingAudit:
    """Score the gaming answers of ``items`` under ``rules``; the shares each accepts.

    Parameters
    ----------
    items : Items
        What :func:`recallscore_nb.io.items.load_items` returns.
    rules : sequence, optional
        Rule names of :data:`~recallscore_nb.core.rules.RULES` or :class:`Rule` values
        (default: every rule, :func:`~recallscore_nb.core.rules.rules_for` ``squad_mode``).
    seed, per_item, families, questions
        As :func:`gaming_answers` takes them.
    f1_threshold : float
        Token F1 from which an answer counts as accepted (as ``recallscore agree``'s).

    Returns
    -------
    GamingAudit
        ``shares``: rule (its measure), family, n, accepted, share, low, high (95 % Wilson);
        ``examples``: :data:`EXAMPLES` per rule and family.

    Examples
    --------
    >>> from recallscore_nb.core.items import Item, Items
    >>> from recallscore_nb.core.rules import Equivalent
    >>> items = Items("d", "", (Item("a", ("Paris",), None), Item("b", ("Lyon",), None)))
    >>> audit = gaming_audit(items, rules=["equivalent", Equivalent(cascade=1)],
    ...                      families=["negation"], seed=3)
    >>> audit.shares[["rule", "accepted"]].values.tolist()
    [['equivalent[0]', 0], ['equivalent[1]', 1]]
    >>> audit.examples[["rule", "answer", "verdict"]].values.tolist()[-1]
    ['equivalent[1]', 'Paris is wrong; it is Lyon.', 'accepted']
    """
    if isinstance(f1_threshold, bool) or not isinstance(f1_threshold, (int, float)) \
            or not 0 <= f1_threshold <= 1:
        raise UsageError(f"'f1_threshold' must be a number from 0 to 1 (got {f1_threshold!r})")
    chosen = resolve_gaming_rules(rules, squad_mode=squad_mode)
    answers = gaming_answers(items, seed=seed, per_item=per_item, families=families,
                             questions=questions)
    skipped = [] if questions is not None or families is not None else [
        "echo: the items carry no question"]
    verdicts, signatures = _verdicts(items, answers, chosen, f1_threshold)
    shares = _shares(answers, verdicts, skipped)
    examples = _examples(items, answers, verdicts, shares, seed)
    return GamingAudit(answers, verdicts, shares, examples, signatures, int(seed),
                       int(per_item), float(f1_threshold), skipped,
                       normalizer_signatures(chosen))
