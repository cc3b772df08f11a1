"""Fact status and weighted score: case tables a person can check by hand.

Most cases use a two-fact checklist of our own with a schema built in code:

- ``place`` (weight 1): required ``west`` + ``drawer``; equivalents ``west-drawer`` (one
  token after normalization) and ``western`` + ``drawer``; contradictions ``east`` +
  ``drawer`` and ``north``;
- ``time`` (weight 3): required ``before dawn`` (one two-token term); equivalent ``at first
  light``; contradiction ``after dawn``.

Penalty 0.5, cues not/no/never/without and ``hardly ever``, window 3; Σ weights = 4.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from recallscore_nb import load_benchmark
from recallscore_nb.core.engine import STRING
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.facts import as_facts
from recallscore_nb.core.schema import FactRule, NumericPolicy, ScoringSchema
from recallscore_nb.core.scoring import score_benchmark
from recallscore_nb.core.status_basis import NO_SCHEMA_NOTE
from recallscore_nb.core.status import (
    STATUSES,
    fact_status,
    status_columns,
    status_signature,
)
from recallscore_nb.io.scoring_schemas import load_scoring_schema

FACTS = as_facts({"place": ["west", "drawer"], "time": ["before dawn"]})
RULES = {
    "place": FactRule("place", 1, (("west-drawer",), ("western", "drawer")),
                      (("east", "drawer"), ("north",))),
    "time": FactRule("time", 3, (("at first light",),), (("after dawn",),)),
}
BASIS_KEYS = {"status", "matched", "terms", "spans", "cue", "conversions", "conflict", "note"}


def schema(*, penalty=0.5, cues=("not", "no", "never", "without", "hardly ever"), window=3,
           facts=None, numeric=None) -> ScoringSchema:
    return ScoringSchema(None, None, "test reading", penalty, tuple(cues), window,
                         RULES if facts is None else facts, numeric or NumericPolicy())


def one(attempt, sch=None, facts=FACTS) -> pd.Series:
    return fact_status([attempt], facts, schema() if sch is None else sch).iloc[0]


# --- every status ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "attempt, place, time",
    [
        ("in the west drawer before dawn", ("present", "required"), ("present", "required")),
        ("in the West-Drawer at first light", ("present", "equivalent[0]"),
         ("present", "equivalent[0]")),
        ("in the western drawer", ("present", "equivalent[1]"), ("missing", None)),
        ("drawer on the west side", ("present", "required"), ("missing", None)),  # any order
        ("in the east drawer after dawn", ("contradicted", "contradiction[0]"),
         ("contradicted", "contradiction[0]")),
        ("up north, before dawn", ("contradicted", "contradiction[1]"), ("present", "required")),
        ("in the northwest drawer", ("missing", None), ("missing", None)),  # whole tokens only
        ("dawn, before it", ("missing", None), ("missing", None)),  # a term's tokens in order
        ("not in the west drawer", ("negated", "required"), ("missing", None)),
        ("in the west drawer but never before dawn", ("present", "required"),
         ("negated", "required")),
        ("west drawer, not the east drawer", ("present", "required"), ("missing", None)),
        ("not the east drawer", ("missing", None), ("missing", None)),  # a negated contradiction
        ("the west drawer, east drawer too", ("conflicting", "required"), ("missing", None)),
        ("", ("missing", None), ("missing", None)),
    ],
)
def test_every_status(attempt, place, time):
    row = one(attempt)
    assert (row["status_place"], row["basis_place"]["matched"]) == place
    assert (row["status_time"], row["basis_time"]["matched"]) == time
    assert row["basis_place"]["status"] == row["status_place"]


# --- the weighted score ------------------------------------------------------------------
@pytest.mark.parametrize(
    "attempt, penalty, expected",
    [
        ("west drawer before dawn", 0.5, 4 / 4),
        ("west drawer", 0.5, 1 / 4),
        ("before dawn", 0.5, 3 / 4),
        ("east drawer before dawn", 0.5, (3 - 0.5 * 1) / 4),
        ("not the west drawer, before dawn", 0.5, (3 - 0.5 * 1) / 4),  # negated: penalty only
        ("east drawer before dawn", 0.0, 3 / 4),
        ("east drawer before dawn", 1.0, (3 - 1) / 4),
        ("west drawer after dawn", 0.5, 0.0),  # (1 - 0.5 * 3) / 4 < 0, floored at 0
        ("east drawer after dawn", 0.5, 0.0),
        ("nothing at all", 0.5, 0.0),
    ],
)
def test_weighted_score(attempt, penalty, expected):
    assert one(attempt, schema(penalty=penalty))["weighted_score"] == pytest.approx(expected)


def test_facts_the_schema_leaves_out_weigh_one():
    sch = schema(facts={"time": FactRule("time", 3)})
    row = one("west drawer", sch)
    assert row["weighted_score"] == pytest.approx(1 / 4)
    assert row["status_place"] == "present"


# --- negation ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "attempt, window, status",
    [
        ("not west drawer", 3, "negated"),                # 1 token before
        ("not in the west drawer", 3, "negated"),         # 3 tokens before: inside
        ("not in all the west drawer", 3, "present"),     # 4 tokens before: just outside
        ("not in west drawer", 1, "present"),
        ("not west drawer", 1, "negated"),
        ("west drawer, not", 3, "present"),               # a cue after does not negate
        ("knot in the west drawer", 3, "present"),        # cues are whole tokens
        ("not the drawer in the west", 3, "negated"),     # earliest matched token: drawer
        ("hardly ever in the west drawer", 3, "negated"),  # a phrase cue counts from its end
        ("hardly in the west drawer", 3, "present"),
    ],
)
def test_negation_window(attempt, window, status):
    assert one(attempt, schema(window=window))["status_place"] == status


def test_a_list_that_is_not_negated_wins():
    row = one("not in the west drawer; rather the west-drawer")
    assert row["status_place"] == "present"
    assert row["basis_place"]["matched"] == "equivalent[0]"


def test_without_cues_nothing_is_negated():
    assert one("not in the west drawer", schema(cues=()))["status_place"] == "present"


# --- the basis ---------------------------------------------------------------------------
def test_basis_of_a_negated_fact():
    basis = one("Not in the WEST drawer.")["basis_place"]
    assert basis == {"status": "negated", "matched": "required", "terms": ["west", "drawer"],
                     "spans": [[11, 15], [16, 22]], "cue": {"token": "not", "span": [0, 3]},
                     "conversions": [], "conflict": None, "note": None}


def test_spans_point_into_the_original_attempt():
    text = "Ça, the WEST-drawer! Hardly ever at first light."
    row = one(text)
    assert row["basis_place"]["spans"] == [[8, 19]]
    assert text[8:19] == "WEST-drawer"
    time = row["basis_time"]
    assert time["status"] == "negated"
    assert time["cue"] == {"token": "hardly ever", "span": [21, 32]}
    assert [text[s:e] for s, e in time["spans"]] == ["at first light"]


def test_spans_survive_lowercasing_that_changes_length():
    text = "İ, west drawer"  # "İ".lower() is two characters
    assert one(text)["basis_place"]["spans"] == [[3, 7], [8, 14]]


def test_basis_of_contradicted_and_missing_facts():
    row = one("in the east drawer")
    assert row["basis_place"] == {
        "status": "contradicted", "matched": "contradiction[0]", "terms": ["east", "drawer"],
        "spans": [[7, 11], [12, 18]], "cue": None, "conversions": [], "conflict": None,
        "note": None}
    assert row["basis_time"] == {"status": "missing", "matched": None, "terms": [], "spans": [],
                                 "cue": None, "conversions": [], "conflict": None, "note": None}


# --- numbers -----------------------------------------------------------------------------
NUMBER_FACTS = as_facts({"count": ["one thousand"], "distance": ["5 km"]})
NUMBER_SCHEMA = schema(
    facts={"count": FactRule("count", 1, (), (("2000",),))},
    numeric=NumericPolicy(units={"km": ("m", 1000)}),
)


@pytest.mark.parametrize(
    "attempt, count, distance",
    [
        ("1,000 coins, 5000 m away", "present", "present"),
        ("1000 coins, 5 km away", "present", "present"),
        ("One thousand coins, 5km away", "present", "present"),
        ("2,000 coins", "contradicted", "missing"),
        ("10000 coins, 5 m", "missing", "missing"),
        ("not 1,000 coins", "negated", "missing"),
        ("100 0 coins", "missing", "missing"),
    ],
)
def test_numbers_are_compared_as_numbers(attempt, count, distance):
    row = one(attempt, NUMBER_SCHEMA, NUMBER_FACTS)
    assert (row["status_count"], row["status_distance"]) == (count, distance)


def test_number_basis_records_conversions_and_spans():
    row = one("About 1,000 coins, 5000 m away.", NUMBER_SCHEMA, NUMBER_FACTS)
    assert row["basis_count"]["spans"] == [[6, 11]]
    assert row["basis_count"]["conversions"] == [
        "term 'one thousand': number words: one thousand = 1000",
        "attempt '1,000': thousands separators: 1,000 = 1000",
    ]
    assert row["basis_distance"]["spans"] == [[19, 25]]
    assert row["basis_distance"]["conversions"] == [
        "term '5 km': unit: 5 km = 5000 m (1 km = 1000 m)"]


def test_tolerance_is_recorded():
    sch = schema(facts={}, numeric=NumericPolicy(abs_tol=0.5))
    row = one("3.5 coins", sch, as_facts({"count": ["3"]}))
    assert row["status_count"] == "present"
    assert row["basis_count"]["conversions"] == [
        "within tolerance: '3' and '3.5' differ by 0.5 (absTol 0.5, relTol 0)"]


def test_percent_as_fraction_in_status():
    facts = as_facts({"rate": ["12%"]})
    yes = schema(facts={}, numeric=NumericPolicy(percent_as_fraction=True))
    assert one("a rate of 0.12", yes, facts)["status_rate"] == "present"
    assert one("a rate of 0.12", schema(facts={}), facts)["status_rate"] == "missing"


# --- the shipped benchmark ---------------------------------------------------------------
SHIPPED = {  # material, object, location, timing; weights 1, 1, 2, 2 (Σ 6)
    "R09": (("missing", "present", "present", "present"), 5 / 6),
    "R10": (("present", "present", "contradicted", "present"), (4 - 0.5 * 2) / 6),
    "R11": (("present", "present", "present", "contradicted"), (4 - 0.5 * 2) / 6),
    "R12": (("contradicted", "present", "present", "present"), (5 - 0.5 * 1) / 6),
}


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


def test_shipped_benchmark_with_shipped_schema(bench):
    table = fact_status(bench.rows_frame()["attempt"], bench, load_scoring_schema(None, bench))
    for i, row in enumerate(bench.rows):
        statuses, score = SHIPPED.get(row.id, (("present",) * 4, 1.0))
        got = table.iloc[i]
        assert tuple(got[f"status_{n}"] for n in bench.fact_names) == statuses, row.id
        assert got["weighted_score"] == pytest.approx(score), row.id


def test_no_schema_is_present_or_missing_and_agrees_with_the_checklist(bench):
    attempts = [r.attempt for r in bench.rows] + ["not the copper token", "east drawer"]
    table = fact_status(attempts, bench)
    checklist = score_benchmark(bench, attempts)
    for name in bench.fact_names:
        assert set(table[f"status_{name}"]) <= {"present", "missing"}
        assert (table[f"status_{name}"] == "present").tolist() == checklist[f"fact_{name}"].tolist()
        assert all(b["note"] == NO_SCHEMA_NOTE for b in table[f"basis_{name}"])
    assert table["weighted_score"].tolist() == pytest.approx(
        (checklist["facts_present"] / 4).tolist())


# --- shape and alignment -----------------------------------------------------------------
def test_columns_dtypes_and_index(bench):
    attempts = pd.Series(["copper token", "", "copper token"], index=["a", "b", "c"])
    table = fact_status(attempts, bench)
    assert table.columns.tolist() == status_columns(bench)
    assert list(table.index) == ["a", "b", "c"]
    assert all(table[f"status_{n}"].dtype == STRING for n in bench.fact_names)
    assert table["weighted_score"].dtype == np.float64
    assert table["basis_object"]["a"] == table["basis_object"]["c"]
    assert set(table["basis_object"]["a"]) == BASIS_KEYS
    assert table["weighted_score"].tolist() == [0.5, 0.0, 0.5]


def test_empty_attempts(bench):
    table = fact_status([], bench, load_scoring_schema(None, bench))
    assert table.columns.tolist() == status_columns(bench) and len(table) == 0


def test_many_rows_agree_with_one_at_a_time():
    pool = ["west drawer before dawn", "not the west drawer", "east drawer after dawn",
            "at first light", "West-Drawer", "", "hardly ever before dawn", "north"]
    attempts = [pool[i] for i in np.random.default_rng(0).integers(0, len(pool), 200)]
    table = fact_status(attempts, FACTS, schema())
    alone = {a: one(a) for a in pool}
    for attempt, (_, row) in zip(attempts, table.iterrows()):
        assert row.equals(alone[attempt])


def test_a_schema_naming_an_unknown_fact_is_refused():
    with pytest.raises(UsageError, match="'colour'"):
        fact_status(["x"], FACTS, schema(facts={"colour": FactRule("colour")}))


def test_statuses_and_signature():
    assert STATUSES == ("present", "missing", "contradicted", "negated", "conflicting")
    assert status_signature() == (
        "schema|sha256:none|fp:0|neg:none|conflict:penalized|num:abs0,rel0,pct-no|version:0.1.0")
    assert status_signature(schema()) == (
        "schema|sha256:none|fp:0.5|neg:not,no,never,without,hardly ever/3/clause"
        "|conflict:penalized|num:abs0,rel0,pct-no|version:0.1.0")


# --- issue 12: conflicting evidence, negation with a scope -------------------------------
HEDGE = "copper silver gold token coin west east drawer before after museum opens closes"


def test_a_hedge_is_conflicting_not_present(bench):
    """Listing every candidate: each fact with a contradiction is conflicting, scored 0."""
    row = fact_status([HEDGE], bench, load_scoring_schema(None, bench)).iloc[0]
    assert [row[f"status_{n}"] for n in bench.fact_names] == [
        "conflicting", "present", "conflicting", "conflicting"]
    assert row["weighted_score"] == 0.0  # (1 - 0.5 * (1 + 2 + 2)) / 6 < 0, floored
    basis = row["basis_location"]
    assert (basis["matched"], basis["terms"]) == ("required", ["west", "drawer"])
    assert basis["conflict"] == {"matched": "contradiction[0]", "terms": ["east", "drawer"],
                                 "spans": [[35, 39], [40, 46]]}


@pytest.mark.parametrize(
    "attempt, place, score",
    [
        ("the west drawer, east drawer too", "conflicting", (3 * 0 - 0.5 * 1) / 4),
        ("west drawer or maybe north", "conflicting", 0.0),
        ("west drawer, not the east drawer", "present", 1 / 4),   # a negated contradiction
        ("not the north drawer but the west drawer", "present", 1 / 4),
        ("the west drawer (never north)", "present", 1 / 4),
    ],
)
def test_conflicting_evidence(attempt, place, score):
    row = one(attempt)
    assert row["status_place"] == place
    assert row["weighted_score"] == pytest.approx(max(score, 0.0))


def test_negation_reaches_the_end_of_its_clause_not_past_it():
    wide = schema(window=12)
    assert one("not going in the big west drawer", wide)["status_place"] == "negated"
    assert one("not now, the west drawer", wide)["status_place"] == "present"
    assert one("not now; the west drawer", wide)["status_place"] == "present"
    assert one("not now: the west drawer", wide)["status_place"] == "present"
    assert one("not now. The west drawer", wide)["status_place"] == "present"
    assert one("not the east one but the west drawer", wide)["status_place"] == "present"
    assert one("not now , the west drawer", wide)["status_place"] == "present"  # a lone comma
    # capped at the window even inside a clause
    assert one("not going in the big west drawer", schema(window=4))["status_place"] == "present"


def test_the_issue_negation_examples_under_the_shipped_schema(bench):
    shipped = load_scoring_schema(None, bench)
    table = fact_status(
        ["The copper token does not go in the west drawer before the museum opens.",
         "The copper token goes in the west drawer, not the east one, before the museum opens."],
        bench, shipped)
    assert table["status_location"].tolist() == ["negated", "present"]
    assert table["status_timing"].tolist() == ["negated", "present"]
    assert table["weighted_score"].tolist() == [pytest.approx((2 - 0.5 * 4) / 6), 1.0]
    assert table["basis_location"][0]["cue"] == {"token": "not", "span": [22, 25]}


def test_conflict_and_scope_are_in_the_signature():
    assert "|neg:not,no,never,without,hardly ever/3/clause|conflict:penalized|" in \
        status_signature(schema())


# --- issue 12: statuses for an items file, each attempt against its own item -------------
def _items():
    from recallscore_nb.core.facts import Fact
    from recallscore_nb.core.items import Item, Items

    return Items("demo.jsonl", "", (
        Item("q1", ("west drawer before dawn",),
             (Fact("place", ("west", "drawer")), Fact("time", ("before dawn",)))),
        Item("q2", ("Paris", "Lutetia"), None),
        Item("q3", ("at dawn",), (Fact("time", ("dawn",)),)),
    ))


def _items_schema():
    from recallscore_nb.core.schema import ItemsSchema

    shared = ScoringSchema("s.json", "0" * 64, "A reading.", 0.5, ("not",), 12, {},
                           NumericPolicy())
    q1 = ScoringSchema("s.json", "0" * 64, "A reading.", 1.0, ("not",), 12, RULES,
                       NumericPolicy())
    return ItemsSchema(shared, {"q1": q1})


def test_item_statuses_over_the_union_of_the_items_facts():
    from recallscore_nb.core.status import item_fact_status, item_status_columns

    items, sch = _items(), _items_schema()
    attempts = ["west drawer, east drawer too, before dawn", "Paris", "not at dawn",
                "at first light", "dawn"]
    table = item_fact_status(attempts, ["q1", "q2", "q3", "q1", "q3"], items, sch)
    assert table.columns.tolist() == item_status_columns(items) == [
        "status_place", "status_time", "weighted_score", "basis_place", "basis_time"]
    assert table["status_place"].tolist() == ["conflicting", pd.NA, pd.NA, "missing", pd.NA]
    assert table["status_time"].tolist() == ["present", pd.NA, "negated", "present", "present"]
    # q1: its own penalty (1) and weights (place 1, time 3); q3: the shared reading
    assert table["weighted_score"].tolist()[:1] == [pytest.approx((3 - 1 * 1) / 4)]
    assert np.isnan(table["weighted_score"][1])
    assert table["weighted_score"].tolist()[2:] == [0.0, 3 / 4, 1.0]
    assert table["basis_place"][1] is None
    assert table["basis_time"][3]["matched"] == "equivalent[0]"


def test_item_statuses_are_the_single_reference_ones_chunk_by_chunk():
    from recallscore_nb.core.status import item_fact_status

    items, sch = _items(), _items_schema()
    rng = np.random.default_rng(1)
    pool = ["west drawer before dawn", "not the west drawer", "east drawer after dawn",
            "at first light", "dawn", "", "not at dawn", "north"]
    attempts = [pool[i] for i in rng.integers(0, len(pool), 60)]
    ids = [["q1", "q2", "q3"][i] for i in rng.integers(0, 3, 60)]
    whole = item_fact_status(attempts, ids, items, sch)
    parts = pd.concat([item_fact_status(pd.Series(attempts[a:b], index=range(a, b)),
                                        ids[a:b], items, sch) for a, b in ((0, 7), (7, 60))])
    pd.testing.assert_frame_equal(whole, parts)
    for item in ("q1", "q3"):
        rows = [r for r, i in enumerate(ids) if i == item]
        alone = fact_status([attempts[r] for r in rows], items.items[int(item[1]) - 1].facts,
                            sch.for_item(item))
        for name in alone.filter(like="status_").columns:
            assert whole[name].iloc[rows].tolist() == alone[name].tolist()
        assert whole["weighted_score"].iloc[rows].tolist() == alone["weighted_score"].tolist()


def test_item_statuses_refuse_unknown_items():
    from recallscore_nb.core.status import item_fact_status

    with pytest.raises(UsageError, match="1 unknown item id.*'q9'"):
        item_fact_status(["x"], ["q9"], _items())
