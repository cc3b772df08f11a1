"""The ``equivalent`` rule's steps and guards against people: what each one does to the
verdicts, on each judged set.

For each step the rule is run without it, for each guard with it switched the other way
(added if it is off by default, removed if it is on), every other option at its default.
``fixed``: attempts the element gets right that the rule without it gets wrong (the judge as
truth); ``broken``: the other way round; ``net``: fixed less broken. ``accuracy`` and
``kappa`` are those of the rule as changed, beside the default rule's on the first row of the
set (change ``none``). A guard that breaks more than it fixes on the development set is off by
default unless it refuses answers that game the rule (the guards of cascade 2: what each costs
is seen here, what each refuses in the gaming audit).

>>> from recallscore_nb.io.human_sets import read_judged_sets
>>> table = step_ablation(read_judged_sets("example"))
>>> table.columns.tolist()
['set', 'role', 'change', 'element', 'kind', 'default', 'fixed', 'broken', 'net', 'accuracy',
 'kappa']
>>> table["change"].iloc[0], table["change"].iloc[1]
('none', 'without exact')
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import engine
from ..core import rules as registry
from ..core.equivalence import GUARDS, STEPS
from ..core.items import OWN_REFERENCES, own_references
from ..core.scoring import prepare_items
from .agreement import cohen_kappa
from .meta_evaluation import judge_verdicts

__all__ = ["ABLATION_COLUMNS", "step_ablation", "guards_left_out"]

ABLATION_COLUMNS = ["set", "role", "change", "element", "kind", "default", "fixed", "broken",
                    "net", "accuracy", "kappa"]


def _changes(default: registry.Equivalent):
    """(change, element, kind, default on or off, the rule as changed), the default rule
    first."""
    yield "none", "", "", "", default
    for step in STEPS:
        on = step in default.steps
        steps = tuple(s for s in default.steps if s != step) if on else default.steps + (step,)
        yield (f"{'without' if on else 'with'} {step}", step, "step", "on" if on else "off",
               registry.Equivalent(steps=steps, guards=default.guards))
    for guard in GUARDS:
        on = guard in default.guards
        guards = tuple(g for g in default.guards if g != guard) if on \
            else default.guards + (guard,)
        yield (f"{'without' if on else 'with'} {guard}", guard, "guard", "on" if on else "off",
               registry.Equivalent(steps=default.steps, guards=guards))


def _one_set(judged, reference_judge: str, protocol: str) -> list[dict]:
    files = judged.files
    attempts = files.attempts.reset_index(drop=True)
    truth = judge_verdicts(files.items, attempts, files.judgments, protocol=protocol)[
        reference_judge]
    rows = truth.notna().to_numpy()
    t = truth.fillna(False).to_numpy(dtype=bool)[rows]
    prepared = prepare_items(files.items)
    own = own_references(attempts[OWN_REFERENCES]) if OWN_REFERENCES in attempts else None
    target = registry.Target(references=prepared.references.for_rows(
        prepared.rows_of(attempts["item"]), own))
    texts = engine.Attempts(engine.as_string_array(attempts["attempt"]))  # shared: normalized once
    default = registry.Equivalent()
    full = default.compute(texts, target)[default.column][rows]
    records = []
    for change, element, kind, on, rule in _changes(default):
        verdict = rule.compute(texts, target)[rule.column][rows]
        with_it, without = (full, verdict) if on == "on" else (verdict, full)
        fixed = int(((with_it == t) & (without != t)).sum())
        broken = int(((with_it != t) & (without == t)).sum())
        records.append({"set": judged.name, "role": judged.role, "change": change, "element": element, "kind": kind,
                        "default": on, "fixed": fixed if kind else 0,
                        "broken": broken if kind else 0, "net": fixed - broken if kind else 0,
                        "accuracy": float(np.mean(verdict == t)) if len(t) else np.nan,
                        "kappa": cohen_kappa(verdict, t)})
    return records


def step_ablation(sets, *, reference_judge: str = "human",
                  protocol: str = "direct") -> pd.DataFrame:
    """The table described above, for each of ``sets``
    (:func:`~recallscore_nb.io.human_sets.read_judged_sets`), over the attempts
    ``reference_judge`` judged."""
    records = [r for judged in sets for r in _one_set(judged, reference_judge, protocol)]
    return pd.DataFrame(records, columns=ABLATION_COLUMNS)


def guards_left_out(ablation: pd.DataFrame) -> pd.DataFrame:
    """The guards off by default, with what switching each on does on the development
    set(s): the figures that left it out (it breaks more verdicts than it fixes)."""
    rows = ablation[(ablation["kind"] == "guard") & (ablation["default"] == "off")
                    & (ablation["role"] == "development")]
    return rows[["set", "element", "fixed", "broken", "net", "accuracy", "kappa"]].reset_index(
        drop=True)
