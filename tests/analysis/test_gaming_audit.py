"""The gaming audit: the answers deterministic by seed, the verdicts those of the package's
own scoring, the shares and their Wilson intervals exact, the examples accepted ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from recallscore_nb.analysis.gaming_audit import (SHARE_COLUMNS, gaming_answers, gaming_audit,
                                                  resolve_gaming_rules, wilson_interval)
from recallscore_nb.analysis.gaming_families import GAMING_FAMILIES, words
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.items import Item, Items
from recallscore_nb.core.rules import Equivalent, binary_measures
from recallscore_nb.core.scoring import score_items

CITIES = ["Paris", "Lyon", "Nice", "Oslo", "Rome", "Bern", "Kyiv", "Riga", "Baku", "Lima",
          "Quito", "Accra", "Hanoi", "Minsk", "Sofia", "Dakar", "Tunis", "Cairo", "Seoul"]
ITEMS = Items("demo.jsonl", "0" * 64, tuple(
    [Item(f"c{i}", (city, city.upper()), None) for i, city in enumerate(CITIES)]
    + [Item("year", ("1983",), None), Item("dist", ("7 km", "seven kilometres"), None)]))
QUESTIONS = {item.id: f"Which answer is item {item.id}?" for item in ITEMS.items}


def test_the_same_seed_gives_the_same_answers_and_another_seed_others():
    first = gaming_answers(ITEMS, seed=5, per_item=2, questions=QUESTIONS)
    again = gaming_answers(ITEMS, seed=5, per_item=2, questions=QUESTIONS)
    assert first.equals(again)
    assert first["answer"].tolist() == again["answer"].tolist()
    other = gaming_answers(ITEMS, seed=6, per_item=2, questions=QUESTIONS)
    assert not first["answer"].equals(other["answer"])
    assert first.columns.tolist() == ["id", "item", "family", "answer"]
    assert first["id"].is_unique


def test_a_familys_answers_do_not_depend_on_the_other_families_drawn():
    every = gaming_answers(ITEMS, seed=2)
    alone = gaming_answers(ITEMS, seed=2, families=["hedge"])
    assert alone["answer"].tolist() == every[every.family == "hedge"]["answer"].tolist()


def test_every_family_answers_every_item_it_can_and_echo_only_with_questions():
    answers = gaming_answers(ITEMS, questions=QUESTIONS)
    counts = answers.groupby("family", sort=False).size()
    assert counts.index.tolist() == [f.name for f in GAMING_FAMILIES]
    assert (counts.drop("quantity") == len(ITEMS)).all()
    assert counts["quantity"] == 2  # only "1983" and "7 km" hold a number
    assert "echo" not in set(gaming_answers(ITEMS)["family"])
    with pytest.raises(UsageError, match="echo family needs the items' questions"):
        gaming_answers(ITEMS, families=["echo"])


def test_the_drawn_answers_never_hold_the_items_own_reference_where_they_must_not():
    answers = gaming_answers(ITEMS, seed=1, per_item=3, questions=QUESTIONS)
    refs = {item.id: item.references for item in ITEMS.items}
    for row in answers.itertuples():
        if row.family not in ("list", "hedge", "dump", "other-item", "refusal"):
            continue
        own = set().union(*(words(r) for r in refs[row.item]))

        def mine(text: str) -> int:
            return sum(w in own for w in words(text))

        if row.family in ("other-item", "refusal"):
            assert mine(row.answer) == 0, row
        else:  # R once, and nothing else of the item's own
            assert any(r in row.answer and mine(row.answer.replace(r, " ", 1)) == 0
                       for r in refs[row.item]), row


def test_the_verdicts_are_those_of_score_items():
    audit = gaming_audit(ITEMS, seed=3, questions=QUESTIONS)
    scored = score_items(ITEMS, audit.answers[["id", "item", "answer"]].rename(
        columns={"answer": "attempt"}))
    for m in binary_measures():
        if m.column in audit.verdicts:
            assert audit.verdicts[m.column].tolist() == scored[m.column].tolist(), m.column
    f1 = audit.verdicts["token_f1>=0.5"].to_numpy(dtype=bool)
    assert (f1 == (scored["token_f1"].to_numpy() >= 0.5)).all()
    assert audit.skipped == ["checklist_full_match: undefined for every answer (no item has a "
                             "checklist)"]


def test_the_shares_count_the_accepted_with_a_wilson_interval():
    audit = gaming_audit(ITEMS, seed=0, questions=QUESTIONS)
    shares = audit.shares
    assert shares.columns.tolist() == SHARE_COLUMNS
    assert list(dict.fromkeys(shares["rule"])) == [
        "literal_match", "normalized_match", "squad_exact_match", "token_f1>=0.5", "contains",
        "equivalent"]
    contains = shares.set_index(["rule", "family"]).loc["contains"]
    assert contains.loc["list", "accepted"] == contains.loc["list", "n"] == len(ITEMS)
    assert contains.loc["other-item", "accepted"] == 0
    for row in shares.itertuples():
        verdicts = audit.verdicts[row.rule][audit.answers.family == row.family]
        assert row.n == len(verdicts) and row.accepted == int(verdicts.sum())
        ci = binomtest(row.accepted, row.n).proportion_ci(0.95, method="wilson")
        assert (row.low, row.high) == pytest.approx((ci.low, ci.high), abs=1e-12)
        assert 0 <= row.low <= row.share <= row.high <= 1
    assert wilson_interval(0, 21)[0] == 0 and wilson_interval(21, 21)[1] == pytest.approx(1)


def test_three_examples_accepted_when_any_else_refused():
    audit = gaming_audit(ITEMS, rules=["contains", "literal"], families=["list", "hedge"])
    examples = audit.examples
    assert examples.groupby(["rule", "family"]).size().tolist() == [3, 3, 3, 3]
    assert set(examples[examples.rule == "contains"]["verdict"]) == {"accepted"}
    assert set(examples[examples.rule == "literal_match"]["verdict"]) == {"refused"}
    assert examples["references"].iloc[0].startswith('["')


def test_rule_values_are_scored_as_given_and_named_apart():
    audit = gaming_audit(ITEMS, rules=["equivalent", Equivalent(cascade=1),
                                       Equivalent(cascade=1, guards=("negation", "candidates"))],
                         families=["list"], seed=4)
    shares = audit.shares.set_index("rule")
    assert shares.loc["equivalent[0]", "accepted"] == 0  # cascade 2 refuses every list
    assert shares.loc["equivalent[1]", "accepted"] == len(ITEMS)
    assert 0 < shares.loc["equivalent[2]", "accepted"] < len(ITEMS)
    assert "guards:negation+candidates" in audit.signatures["equivalent[2]"]
    assert "cascade:1" in audit.signatures["equivalent[1]"]


def test_bad_arguments_are_usage_errors_naming_what_is_known():
    with pytest.raises(UsageError, match=r"unknown rule 'exact' \(rules: literal, normalized"):
        resolve_gaming_rules(["contains", "exact"])
    with pytest.raises(UsageError, match="per_item"):
        gaming_answers(ITEMS, per_item=0)
    with pytest.raises(UsageError, match="f1_threshold"):
        gaming_audit(ITEMS, f1_threshold=2)


def test_the_share_table_is_percent_by_family_with_the_counts_last():
    table = gaming_audit(ITEMS, rules=["contains"], families=["list", "quantity"]).share_table()
    assert table.index.tolist() == ["contains", "n"]
    assert table.loc["contains", "list"] == 100.0 and table.loc["n", "quantity"] == 2


@pytest.mark.parametrize("name", ["evouna-nq", "openqa-nq301"])
def test_the_shipped_sets_audit_fast_and_contains_accepts_every_list(name):
    from recallscore_nb.io.data import DATA_DIR
    from recallscore_nb.io.items import load_items, load_questions

    path = DATA_DIR / "human_judgments" / name / "items.jsonl.gz"
    items = load_items(path)
    audit = gaming_audit(items, questions=load_questions(path))
    shares = audit.shares.set_index(["rule", "family"])
    assert shares.loc[("contains", "list"), "share"] == 1.0
    assert shares.loc[("literal_match", "other-item"), "accepted"] == 0
    assert shares.loc[("contains", "echo"), "n"] == len(items)
    assert np.isfinite(shares["low"]).all()
