"""The meta-evaluation of several judged sets at once (notebook 08): each set evaluated on its
own (:func:`~recallscore_nb.analysis.meta_evaluation.meta_evaluate`), its tables stacked with
a leading ``set`` column.

>>> from recallscore_nb.io.human_sets import read_judged_sets
>>> both = meta_evaluate_sets(read_judged_sets("example"), resamples=20, seed=1)
>>> both.agreement.columns[:3].tolist(), both.sets
(['set', 'rule', 'judge'], ('example',))
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .meta_evaluation import MetaEvaluation, meta_evaluate
from .meta_tables import compared_annotators

__all__ = ["MetaEvaluations", "meta_evaluate_sets"]

@dataclass(frozen=True, repr=False)
class MetaEvaluations:
    """One :class:`~recallscore_nb.analysis.meta_evaluation.MetaEvaluation` per set (by name,
    in order), with each set's role and LaTeX tag; each table of theirs, stacked, is an
    attribute of the same name."""

    evaluations: dict[str, MetaEvaluation]
    roles: dict[str, str]
    tags: dict[str, str]

    @property
    def sets(self) -> tuple[str, ...]:
        return tuple(self.evaluations)

    def _stacked(self, name: str) -> pd.DataFrame | None:
        parts = [getattr(e, name).assign(set=s) for s, e in self.evaluations.items()
                 if getattr(e, name) is not None]
        if not parts:
            return None
        table = pd.concat(parts, ignore_index=True)
        return table[["set", *[c for c in table.columns if c != "set"]]]

    def __getattr__(self, name: str):
        if name in MetaEvaluation.TABLES:
            return self._stacked(name)
        raise AttributeError(name)

    @property
    def signature(self) -> str:
        return next(iter(self.evaluations.values())).signature

    @property
    def bootstrap(self) -> str:
        return next(iter(self.evaluations.values())).bootstrap

    def __repr__(self) -> str:
        blocks = [f"{name} ({self.roles[name] or 'set'}):\n" + "\n".join(
            "  " + line for line in repr(e).splitlines()[2:])
            for name, e in self.evaluations.items()]
        return "\n".join([self.signature, self.bootstrap, *blocks])


def meta_evaluate_sets(sets, *, reference_judge: str = "human", annotators: str = "",
                       protocol: str = "direct", seed: int = 0, resamples: int = 2000,
                       f1_threshold: float = 0.5) -> MetaEvaluations:
    """Evaluate every rule on each judged set (:func:`~recallscore_nb.io.human_sets.
    read_judged_sets`) against ``reference_judge``. ``annotators`` (comma-separated) names
    the people compared with each other in every set; empty: each set's own (its
    ``set.json``: none when it lists none), or, a set that says nothing of them, every judge
    but the reference judge."""
    out = {}
    for judged in sets:
        files = judged.files
        if annotators or judged.annotators is None:
            compared = compared_annotators(annotators, files.judgments.judges,
                                           reference_judge=reference_judge)
        else:
            compared = list(judged.annotators) if len(judged.annotators) >= 2 else []
        out[judged.name] = meta_evaluate(
            files.items, files.attempts, files.judgments, reference_judge=reference_judge,
            annotators=compared,
            protocol=protocol, seed=seed, resamples=resamples, f1_threshold=f1_threshold)
    return MetaEvaluations(out, {s.name: s.role for s in sets}, {s.name: s.tag for s in sets})
