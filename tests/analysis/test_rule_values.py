"""Measures named against the rule registry, and their values per row."""

from __future__ import annotations

from recallscore_nb.analysis.rule_values import resolve_rules


def test_resolve_rules():
    assert resolve_rules() == ["literal_match", "normalized_match", "squad_exact_match",
                               "token_f1", "contains", "checklist_full_match",
                               "partial_credit", "equivalent"]
    assert resolve_rules("token_f1") == ["token_f1"]
