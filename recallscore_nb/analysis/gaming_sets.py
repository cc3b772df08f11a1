"""The gaming audit of each judged set: notebook 08's "can a rule be gamed?".

:func:`gaming_audit_sets` runs :func:`~recallscore_nb.analysis.gaming_audit.gaming_audit` on
the items of each set (:func:`~recallscore_nb.io.human_sets.read_judged_sets`), with the
items file's questions for the ``echo`` family, and stacks the results with the set's name
first. :func:`gaming_numbers` gives the shares the paper quotes.

>>> from recallscore_nb.io.human_sets import read_judged_sets
>>> audit = gaming_audit_sets(read_judged_sets("example"), rules=["contains"],
...                           families=["hedge", "refusal"])
>>> audit
gaming answers seeded 0, 1 per item and family
example: 2 families, 16 answers, 1 measures
>>> audit.shares[["set", "rule", "family", "n", "accepted"]].values.tolist()
[['example', 'contains', 'hedge', 8, 8], ['example', 'contains', 'refusal', 8, 0]]
>>> gaming_numbers(audit)
{'GamingExampleContainsHedge': '100.0', 'GamingExampleContainsRefusal': '0.0'}
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..core import rules as registry
from ..core.macros import macro_tag
from ..io.items import load_questions
from .gaming_audit import gaming_audit

__all__ = ["GamingSets", "gaming_audit_sets", "gaming_numbers"]


@dataclass
class GamingSets:
    """The audits of :func:`gaming_audit_sets`: ``shares`` and ``examples`` with a ``set``
    column first, each set's ``tag`` (for macro names), the measures' ``signatures``,
    the ``seed`` and ``per_item`` they were drawn with, and what was ``skipped``, per set."""

    shares: pd.DataFrame
    examples: pd.DataFrame
    tags: dict[str, str]
    signatures: dict[str, str]
    seed: int
    per_item: int
    skipped: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        """What was audited: per set its families, answers and measures, then what was left
        out."""
        lines = [f"gaming answers seeded {self.seed}, {self.per_item} per item and family"]
        for name, table in self.shares.groupby("set", sort=False):
            first = table[table["rule"] == table["rule"].iloc[0]]
            lines.append(f"{name}: {len(first)} families, {int(first['n'].sum())} answers, "
                         f"{table['rule'].nunique()} measures")
        return "\n".join(lines + [f"skipped: {s}" for s in self.skipped])


def gaming_audit_sets(sets, rules=None, seed: int = 0, per_item: int = 1, families=None, *,
                      f1_threshold: float = 0.5, squad_mode: str = "v1.1") -> GamingSets:
    """The gaming audit of each of ``sets``' items, as :func:`gaming_audit` takes its
    options; the questions of each items file feed the ``echo`` family (a set whose items
    carry none leaves it out, and says so in ``skipped``)."""
    shares, examples, skipped, signatures = [], [], [], {}
    for judged in sets:
        items = judged.files.items
        audit = gaming_audit(items, rules=rules, seed=seed, per_item=per_item, families=families,
                             questions=load_questions(items.path) or None,
                             f1_threshold=f1_threshold, squad_mode=squad_mode)
        shares.append(audit.shares.assign(set=judged.name))
        examples.append(audit.examples.assign(set=judged.name))
        skipped += [f"{judged.name}: {s}" for s in audit.skipped]
        signatures.update(audit.signatures)
    return GamingSets(
        shares=_set_first(shares), examples=_set_first(examples),
        tags={s.name: s.tag for s in sets}, signatures=signatures, seed=int(seed),
        per_item=int(per_item), skipped=skipped)


def _set_first(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frame = pd.concat(frames, ignore_index=True)
    return frame[["set"] + [c for c in frame.columns if c != "set"]]


def gaming_numbers(audit: GamingSets) -> dict[str, str]:
    """``Gaming<set><measure><family>``: the share accepted, in percent with one decimal, for
    each measure a rule of the registry names (a thresholded graded measure is tagged with
    ``Thresholded``; a variant, ``equivalent[1]``, is not quoted)."""
    tags = {m.column: m.tag for m in registry.measures()}
    out = {}
    for row in audit.shares.itertuples(index=False):
        base, _, threshold = row.rule.partition(">=")
        if base not in tags:
            continue
        measure = tags[base] + ("Thresholded" if threshold else "")
        key = f"Gaming{audit.tags[row.set]}{measure}{macro_tag(row.family)}"
        out[key] = f"{row.share * 100:.1f}"
    return out
