"""The gaming audit of judged sets: each set's own audit, stacked, and the numbers quoted."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from recallscore_nb.analysis.gaming_audit import gaming_audit
from recallscore_nb.analysis.gaming_sets import gaming_audit_sets, gaming_numbers
from recallscore_nb.core import rules as registry
from recallscore_nb.io.human_sets import read_judged_sets
from recallscore_nb.io.items import load_questions

TOKEN_F1_TAG = {m.column: m.tag for m in registry.measures()}["token_f1"]


def test_each_set_is_its_own_audit_stacked_set_first():
    sets = read_judged_sets("example")
    audit = gaming_audit_sets(sets, rules=["contains", "equivalent"], seed=4)
    alone = gaming_audit(sets[0].files.items, rules=["contains", "equivalent"], seed=4,
                         questions=load_questions(sets[0].files.items.path))
    assert audit.shares.columns[0] == "set" and set(audit.shares["set"]) == {"example"}
    pd.testing.assert_frame_equal(audit.shares.drop(columns="set"), alone.shares)
    assert audit.examples.columns[0] == "set"
    assert set(audit.signatures) == {"contains", "equivalent"}
    assert audit.seed == 4 and audit.per_item == 1


def test_the_numbers_are_percent_with_one_decimal_and_letters_only_names():
    audit = gaming_audit_sets(read_judged_sets("example"), rules=["token_f1", "contains"],
                              families=["list", "other-item"], f1_threshold=0.5)
    numbers = gaming_numbers(audit)
    assert all(name.isalpha() for name in numbers)
    assert numbers["GamingExampleContainsList"] == "100.0"
    assert [name for name in numbers if name.endswith("ThresholdedList")] == [
        f"GamingExample{TOKEN_F1_TAG}ThresholdedList"]
    shares = audit.shares.set_index(["rule", "family"])["share"]
    assert numbers["GamingExampleContainsOtherItem"] == \
        f"{shares[('contains', 'other-item')] * 100:.1f}"


def test_a_variant_of_a_rule_is_audited_but_not_quoted():
    from recallscore_nb.core.rules import Equivalent
    audit = gaming_audit_sets(read_judged_sets("example"),
                              rules=["equivalent", Equivalent(guards=())], families=["negation"])
    assert list(audit.shares["rule"]) == ["equivalent[0]", "equivalent[1]"]
    assert gaming_numbers(audit) == {}


def test_items_without_questions_leave_out_the_echo_and_say_so(tmp_path):
    example = read_judged_sets("example")[0]
    folder = Path(example.files.items.path).parent
    records = [json.loads(line) for line in
               (folder / "items.jsonl").read_text("utf-8").splitlines() if line.strip()]
    items = tmp_path / "mine" / "items.jsonl"
    items.parent.mkdir()
    items.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "question"}) + "\n"
                             for r in records), "utf-8")
    (attempts,) = folder.glob("attempts.*")
    (judgments,) = folder.glob("judgments.*")
    mine = read_judged_sets("", items_path=items, attempts_path=attempts,
                            judgments_path=judgments)
    audit = gaming_audit_sets(mine, rules=["contains"])
    assert "echo" not in set(audit.shares["family"])
    assert audit.skipped == ["mine: echo: the items carry no question"]
    shipped = gaming_audit_sets(read_judged_sets("example"), rules=["contains"])
    assert "echo" in set(shipped.shares["family"]) and shipped.skipped == []


def test_an_unknown_rule_is_refused_by_name():
    from recallscore_nb.core.errors import UsageError
    with pytest.raises(UsageError, match="unknown rule 'exact'"):
        gaming_audit_sets(read_judged_sets("example"), rules=["exact"])
