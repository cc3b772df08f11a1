"""The five statuses, and the basis each status rests on, built in Python once per distinct
attempt: each term's span in the original attempt, the numbers found in it, and the cue that
negates a fact. A seed token is a whitespace-delimited run with its ASCII punctuation deleted;
its span runs from the run's first kept character to its last (lowercasing never turns a
character into whitespace or ASCII punctuation, so the original text can be read directly).

>>> token_spans("West-drawer, at  dawn.")
[(0, 11), (13, 15), (17, 21)]
"""

from __future__ import annotations

import re
import string

import numpy as np

from .negation import Scope
from .numeric import FoundNumber, NumberTerm, find_numbers, numbers_equal

__all__ = ["STATUSES", "PRESENT", "MISSING", "CONTRADICTED", "NEGATED", "CONFLICTING",
           "PENALIZED", "NO_SCHEMA_NOTE", "TokenSpans", "token_spans", "numbers_found",
           "bases_of"]

STATUSES = ("present", "missing", "contradicted", "negated", "conflicting")
"""The statuses a fact can have; ``status_<fact>`` columns hold these strings."""

PRESENT, MISSING, CONTRADICTED, NEGATED, CONFLICTING = range(5)
PENALIZED = (CONTRADICTED, NEGATED, CONFLICTING)

NO_SCHEMA_NOTE = ("no scoring schema: every fact weighs 1, with no equivalents, "
                  "contradictions, negation or penalty, so the status is present or missing")

# A seed token is a whitespace-delimited run with its ASCII punctuation deleted; its span runs
# from the run's first kept character to its last. Lowercasing never turns a character into
# whitespace or ASCII punctuation, so the original text can be read directly.
_PUNCT = re.escape(string.punctuation)
_TOKEN = re.compile(rf"[^\s{_PUNCT}](?:\S*[^\s{_PUNCT}])?")


class TokenSpans:
    """Each distinct attempt's seed tokens as character spans of the original, on demand.

    The seed pipeline lowercases, deletes ASCII punctuation and splits on whitespace; a
    token's span runs from its first kept character to its last, so ``west-drawer`` (token
    ``westdrawer``) spans the whole original ``west-drawer``.
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._cache: dict[int, list[tuple[int, int]]] = {}

    def __getitem__(self, row: int) -> list[tuple[int, int]]:
        if row not in self._cache:
            self._cache[row] = token_spans(self.texts[row])
        return self._cache[row]


def token_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text)]


def _token_at(spans: list[tuple[int, int]], span: tuple[int, int]) -> int:
    """The first token overlapping a character span (numbers always keep a digit or letter)."""
    for i, (s, e) in enumerate(spans):
        if e > span[0] and s < span[1]:
            return i
    return -1


def numbers_found(texts, plan, policy, spans_of: TokenSpans, first: np.ndarray,
                  free: np.ndarray, scope: Scope):
    """For numeric terms: per (term, row), the first matching number and the first outside
    any cue's scope (keys ``(k, row)`` and ``(k, row, "free")``); fills ``first``, ``free``."""
    numeric = [k for k, term in enumerate(plan.terms) if term.number is not None]
    matches: dict[tuple, FoundNumber] = {}
    if not numeric:
        return matches
    for row, text in enumerate(texts):
        found = find_numbers(text, policy)
        if not found:
            continue
        for k in numeric:
            for hit in found:
                if not numbers_equal(plan.terms[k].number, hit, policy):
                    continue
                position = _token_at(spans_of[row], hit.span)
                if (k, row) not in matches:
                    matches[(k, row)] = hit
                    first[k, row] = position
                if not scope(row, position):
                    matches[(k, row, "free")] = hit
                    free[k, row] = position
                    break
    return matches


def bases_of(texts, plan, schema, no_schema, codes, chosen, conflict, earliest_of, first, free,
             numbers, spans_of, cue, clause, row_start) -> list[list[dict]]:
    note = NO_SCHEMA_NOTE if no_schema else None
    cue_order = np.argsort(cue["rows"], kind="stable")
    cue_bounds = np.searchsorted(cue["rows"][cue_order], np.arange(len(texts) + 1))
    # Python lists index far faster than numpy scalars in this loop.
    codes, chosen, conflict, earliest_of, first, free = (
        a.tolist() for a in (codes, chosen, conflict, earliest_of, first, free))
    term_info = [(term.number, len(term.tokens) - 1) for term in plan.terms]

    def located(lst, row, inside):
        """Each term's span and the numeric conversions: the first occurrence outside any
        scope, or (``inside``) the first occurrence at all."""
        spans = spans_of[row]
        positions = first if inside else free
        found, conversions = [], []
        for k in lst.keys:
            number, extra = term_info[k]
            if number is not None:
                hit = numbers[(k, row)] if inside else numbers[(k, row, "free")]
                found.append(list(hit.span))
                conversions += _number_notes(number, hit, schema.numeric)
            else:
                p = positions[k][row]
                found.append([spans[p][0], spans[p + extra][1]])
        return found, conversions

    out = []
    for row in range(len(texts)):
        cells = []
        row_codes, row_chosen, row_conflict = codes[row], chosen[row], conflict[row]
        for j, lists in enumerate(plan.lists):
            code, li = row_codes[j], row_chosen[j]
            if li < 0:
                cells.append({"status": STATUSES[code], "matched": None, "terms": [],
                              "spans": [], "cue": None, "conversions": [], "conflict": None,
                              "note": note})
                continue
            lst = lists[li]
            found, conversions = located(lst, row, code == NEGATED)
            cue_basis = None
            if code == NEGATED:
                cue_basis = _cue_basis(plan, cue, cue_order, cue_bounds, row,
                                       earliest_of[row][j], schema, spans_of[row], clause,
                                       row_start)
            against = None
            if code == CONFLICTING:
                other = lists[row_conflict[j]]
                against = {"matched": other.label, "terms": list(other.terms),
                           "spans": located(other, row, False)[0]}
            cells.append({"status": STATUSES[code], "matched": lst.label,
                          "terms": list(lst.terms), "spans": found, "cue": cue_basis,
                          "conversions": conversions, "conflict": against, "note": note})
        out.append(cells)
    return out


def _number_notes(term: NumberTerm, hit: FoundNumber, policy) -> list[str]:
    notes = [f"term {term.text!r}: {c}" for c in term.conversions]
    notes += [f"attempt {hit.text!r}: {c}" for c in hit.conversions]
    if term.exact != hit.exact:
        notes.append(f"within tolerance: {term.text!r} and {hit.text!r} differ by "
                     f"{abs(term.exact - hit.exact).normalize():f} "
                     f"(absTol {policy.abs_tol:g}, relTol {policy.rel_tol:g})")
    return notes


def _cue_basis(plan, cue, order, bounds, row, earliest, schema, spans, clause,
               row_start) -> dict | None:
    """The cue nearest before ``earliest`` whose scope covers it, as the basis records it."""
    picks = order[bounds[row]:bounds[row + 1]]
    ends = cue["ends"][picks]
    near = (earliest - ends >= 1) & (earliest - ends <= schema.negation_window)
    near &= clause[cue["flat"][picks]] == clause[row_start[row] + earliest]
    if not near.any():
        return None
    best = picks[near][np.argmax(ends[near])]
    start, end = int(cue["starts"][best]), int(cue["ends"][best])
    return {"token": plan.cues[int(cue["ids"][best])][0],
            "span": [spans[start][0], spans[end][1]]}
