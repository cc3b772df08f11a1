"""Each fact of each benchmark variant as present, missing, contradicted, negated or
conflicting (notebook 07), as tables: the statuses beside the rules' scores, the status
matrix, the counts per fact, the explanation of every status that is not plainly present, and
the scoring schema itself, fact by fact and its other settings.

Pure: :func:`recallscore_nb.core.status.fact_status` computes the statuses; the functions here
arrange them; :func:`recallscore_nb.render.plots.fact_status_figure` draws the matrix.
"""

from __future__ import annotations

import re

import pandas as pd

from ..core.rules import Checklist
from ..core.scoring import score_benchmark
from ..core.status import STATUSES, fact_status

__all__ = ["score_fact_statuses", "status_matrix", "status_counts", "explanations",
           "schema_facts", "schema_settings"]


def score_fact_statuses(benchmark, schema, *, squad_mode: str = "v1.1") -> pd.DataFrame:
    """The benchmark's rows scored by every rule, each fact's status (``status_<fact>``), the
    weighted score and each status's basis (``basis_<fact>``), one row per variant."""
    scores = score_benchmark(benchmark, squad_mode=squad_mode).reset_index(drop=True)
    statuses = fact_status(scores["attempt"], benchmark, schema).reset_index(drop=True)
    return pd.concat([scores, statuses], axis=1)


def _conditions(scores: pd.DataFrame) -> list[str]:
    if "condition" not in scores:
        return [""] * len(scores)
    return ["" if pd.isna(c) else str(c) for c in scores["condition"]]


def status_matrix(scored: pd.DataFrame, facts) -> pd.DataFrame:
    """Per variant: ``id, condition``, ``status_<fact>`` per fact, ``weighted_score``, then the
    binary checklist's columns (its facts present, facts total and full match)."""
    out = pd.DataFrame({"id": scored["id"].astype(object).to_numpy(),
                        "condition": _conditions(scored)})
    for fact in facts:
        out[f"status_{fact.name}"] = [str(s) for s in scored[f"status_{fact.name}"]]
    out["weighted_score"] = scored["weighted_score"].astype(float).to_numpy()
    for column in (c.name for c in Checklist.columns):
        out[column] = scored[column].to_numpy()
    return out


def status_counts(matrix: pd.DataFrame, facts) -> pd.DataFrame:
    """Per fact, how many variants have each status (zeros included), and a ``total`` row."""
    rows = []
    for fact in facts:
        column = matrix[f"status_{fact.name}"]
        rows.append({"fact": fact.name, **{s: int((column == s).sum()) for s in STATUSES}})
    table = pd.DataFrame(rows, columns=["fact", *STATUSES])
    total = {"fact": "total", **{s: int(table[s].sum()) for s in STATUSES}}
    return pd.concat([table, pd.DataFrame([total])], ignore_index=True)


def _spans_text(spans) -> str:
    return "; ".join(f"{int(a)}-{int(b)}" for a, b in spans or ())


def explanations(scored: pd.DataFrame, facts) -> pd.DataFrame:
    """Every fact that is not plainly present (present through an equivalent, or missing,
    contradicted, negated or conflicting), with its basis: what matched, the terms, their
    character spans in the attempt (``start-end``), the negation cue, and for a conflicting
    fact the contradiction found beside it (``contradiction[i]: terms at spans``)."""
    rows = []
    for i, row_id in enumerate(scored["id"]):
        for fact in facts:
            basis = scored[f"basis_{fact.name}"].iat[i]
            status = str(scored[f"status_{fact.name}"].iat[i])
            if status == "present" and basis.get("matched") == "required":
                continue
            cue = basis.get("cue")
            against = basis.get("conflict")
            rows.append({
                "id": str(row_id),
                "fact": fact.name,
                "status": status,
                "matched": basis.get("matched") or "",
                "terms": "; ".join(basis.get("terms") or ()),
                "spans": _spans_text(basis.get("spans")),
                "cue": f"{cue['token']} at {_spans_text([cue['span']])}" if cue else "",
                "conflict": (f"{against['matched']}: {'; '.join(against['terms'])} at "
                             f"{_spans_text(against['spans'])}" if against else ""),
            })
    columns = ["id", "fact", "status", "matched", "terms", "spans", "cue", "conflict"]
    return pd.DataFrame(rows, columns=columns)


def _term_lists(lists) -> str:
    return "; ".join(" + ".join(terms) for terms in lists)


def schema_facts(schema, facts) -> pd.DataFrame:
    """Per fact: its weight, required terms, equivalent and contradicting formulations
    (alternatives separated by ``;``, the terms of one by ``+``)."""
    rows = []
    for fact in facts:
        rule = schema.facts[fact.name]
        rows.append({"fact": fact.name, "weight": format(float(rule.weight), "g"),
                     "required": " + ".join(fact.terms),
                     "equivalents": _term_lists(rule.equivalents),
                     "contradictions": _term_lists(rule.contradictions)})
    return pd.DataFrame(rows, columns=["fact", "weight", "required", "equivalents",
                                       "contradictions"])


def _sentences(text: str) -> list[str]:
    """A note split after each full stop, question or exclamation mark.

    >>> _sentences("One reading. Another one? Yes")
    ['One reading.', 'Another one?', 'Yes']
    """
    return [part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part]


def schema_settings(schema) -> pd.DataFrame:
    """The schema's other settings: the expert-disagreement note (a row per sentence), the
    false-positive penalty, the negation cues and window, and its signature."""
    note = _sentences(schema.disagreement_note)
    settings = ["disagreement note"] + [""] * (len(note) - 1)
    values = list(note)
    settings += ["false-positive penalty", "negation cues", "negation window (tokens)",
                 "signature"]
    values += [format(schema.false_positive_penalty, "g"),
               "; ".join(schema.negation_cues) or "none", str(schema.negation_window),
               schema.signature()]
    return pd.DataFrame({"setting": settings, "value": values})
