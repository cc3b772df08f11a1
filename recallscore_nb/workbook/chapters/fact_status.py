"""Notebook 07: each variant's facts as present, missing, contradicted, negated or conflicting.

The scoring schema (weights, equivalent and contradicting formulations, negation cues) reads
each fact of each benchmark variant as one of four statuses; the weighted score sits beside
the binary checklist it refines. The pure functions (``status_matrix``, ``status_counts``,
``explanations``, ``schema_facts``) take frames and return frames; the steps compute through
them and draw with :func:`recallscore_nb.render.plots.fact_status_figure`; the notebook saves
what they return.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from ...core.rules import Checklist
from ...core.scoring import score_benchmark
from ...core.status import STATUSES, fact_status
from ...render.plots import fact_status_figure
from ..session import Session, start as _start

__all__ = ["STEM", "start", "schema_table", "settings_table", "scored", "status_table",
           "status_figure", "counts_table", "explanations_table", "numbers", "status_matrix",
           "status_counts", "explanations", "schema_facts"]

STEM = "07_fact_status"


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark and the scoring schema; the session signs
    its outputs with every rule and the scoring schema."""
    nb = _start(STEM, namespace)
    nb.sign_rules()
    nb.sign(nb.schema.signature())
    return nb


def scored(nb: Session) -> pd.DataFrame:
    """The benchmark's rows scored by every rule, each fact's status (``status_<fact>``), the
    weighted score and each status's basis (``basis_<fact>``), one row per variant."""
    scores = score_benchmark(nb.benchmark).reset_index(drop=True)
    statuses = fact_status(scores["attempt"], nb.benchmark, nb.schema).reset_index(drop=True)
    return pd.concat([scores, statuses], axis=1)


def _tag(name: str) -> str:
    """A fact name as letters for a paper number: ``west_drawer`` gives ``WestDrawer``."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z]+", name))


def _conditions(scores: pd.DataFrame) -> list[str]:
    if "condition" not in scores:
        return [""] * len(scores)
    return ["" if pd.isna(c) else str(c) for c in scores["condition"]]


# --- pure: tables ---------------------------------------------------------------------------
def status_matrix(scores: pd.DataFrame, statuses: pd.DataFrame, facts) -> pd.DataFrame:
    """Per variant: ``id, condition``, ``status_<fact>`` per fact, ``weighted_score``, then the
    binary checklist's columns (its facts present, facts total and full match)."""
    out = pd.DataFrame({"id": scores["id"].astype(object).to_numpy(),
                        "condition": _conditions(scores)})
    for fact in facts:
        out[f"status_{fact.name}"] = [str(s) for s in statuses[f"status_{fact.name}"]]
    out["weighted_score"] = statuses["weighted_score"].astype(float).to_numpy()
    for column in (c.name for c in Checklist.columns):
        out[column] = scores[column].to_numpy()
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


def explanations(scores: pd.DataFrame, statuses: pd.DataFrame, facts) -> pd.DataFrame:
    """Every fact that is not plainly present (present through an equivalent, or missing,
    contradicted, negated or conflicting), with its basis: what matched, the terms, their
    character spans in the attempt (``start-end``), the negation cue, and for a conflicting
    fact the contradiction found beside it (``contradiction[i]: terms at spans``)."""
    rows = []
    for i, row_id in enumerate(scores["id"]):
        for fact in facts:
            basis = statuses[f"basis_{fact.name}"].iat[i]
            status = str(statuses[f"status_{fact.name}"].iat[i])
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


# --- steps ----------------------------------------------------------------------------------
def schema_table(nb: Session) -> pd.DataFrame:
    """The scoring schema, fact by fact: weight, required terms, equivalents, contradictions."""
    return schema_facts(nb.schema, nb.benchmark.facts)


def _sentences(text: str) -> list[str]:
    """A note split after each full stop, question or exclamation mark.

    >>> _sentences("One reading. Another one? Yes")
    ['One reading.', 'Another one?', 'Yes']
    """
    return [part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part]


def settings_table(nb: Session) -> pd.DataFrame:
    """The schema's other settings: the expert-disagreement note (a row per sentence), the
    false-positive penalty, the negation cues and window, and its signature."""
    schema = nb.schema
    note = _sentences(schema.disagreement_note)
    settings = ["disagreement note"] + [""] * (len(note) - 1)
    values = list(note)
    settings += ["false-positive penalty", "negation cues", "negation window (tokens)",
                 "signature"]
    values += [format(schema.false_positive_penalty, "g"),
               "; ".join(schema.negation_cues) or "none", str(schema.negation_window),
               schema.signature()]
    return pd.DataFrame({"setting": settings, "value": values})


def status_table(nb: Session, scored: pd.DataFrame) -> pd.DataFrame:
    """The variant × fact status matrix, the weighted score beside the binary checklist."""
    return status_matrix(scored, scored, nb.benchmark.facts)


def status_figure(nb: Session, matrix: pd.DataFrame):
    """The status matrix as a figure, coloured by status, the checklist and weighted score
    beside it."""
    return fact_status_figure(matrix, nb.benchmark.facts)


def counts_table(nb: Session, matrix: pd.DataFrame) -> pd.DataFrame:
    """How many variants have each status, fact by fact, and in total."""
    return status_counts(matrix, nb.benchmark.facts)


def explanations_table(nb: Session, scored: pd.DataFrame) -> pd.DataFrame:
    """Why each fact that is not plainly present has its status: the basis, row by row."""
    return explanations(scored, scored, nb.benchmark.facts)


def numbers(nb: Session, matrix: pd.DataFrame, counts: pd.DataFrame,
            explained: pd.DataFrame) -> dict[str, object]:
    """The variants, how many have every fact present, the checklist's full matches, the mean
    and full weighted scores, each status's count per fact (and in total), and the facts
    explained."""
    weighted = matrix["weighted_score"].tolist()
    mean = math.fsum(weighted) / len(weighted) if weighted else float("nan")
    status_columns = [f"status_{f.name}" for f in nb.benchmark.facts]
    all_present = (matrix[status_columns] == "present").all(axis=1)
    quoted = {
        "FactStatusVariantCount": len(matrix),
        "FactStatusAllPresent": int(all_present.sum()),
        "FactStatusChecklistFullMatches": int(matrix[Checklist.column].sum()),
        "FactStatusMeanWeightedScore": "n/a" if math.isnan(mean) else f"{mean:.3f}",
        "FactStatusFullWeightedScores": int((matrix["weighted_score"] == 1.0).sum()),
    }
    tags = [_tag(name) for name in counts["fact"][:-1]]
    for record in counts.itertuples(index=False):
        tag = "" if record.fact == "total" else _tag(record.fact)
        if record.fact != "total" and (not tag or tags.count(tag) > 1):
            continue  # a fact name that gives no letters of its own: its row is in the table
        for status in STATUSES:
            quoted[f"FactStatus{status.capitalize()}{tag}"] = getattr(record, status)
    quoted["FactStatusExplainedFacts"] = len(explained)
    return quoted
