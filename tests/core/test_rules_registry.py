"""The rule registry: every rule declares everything, its columns are named in one module, and
a new rule is one class: added to the registry, it is scored, read back and summarized without
touching any other module."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import re
import tokenize
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pytest

import recallscore_nb
from recallscore_nb import __version__, load_benchmark, score_benchmark
from recallscore_nb.core import rules
from recallscore_nb.core.equivalence import LABELS as EQUIVALENCE_LABELS
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.facts import Fact, partial_credit
from recallscore_nb.core.rules import (
    BINARY,
    COUNT,
    GRADED,
    LABEL,
    RULES,
    Checklist,
    Column,
    Measure,
    Rule,
    Target,
)

PACKAGE = Path(recallscore_nb.__file__).parent
REGISTRY = PACKAGE / "core" / "rules.py"
COLUMNS = ("literal_match", "normalized_match", "squad_exact_match", "token_f1", "contains",
           "facts_present", "facts_total", "checklist_full_match", "partial_credit",
           "equivalent", "equivalent_step")
"""The seven rules' column names (and the checklist's partial credit)."""

# --- the registry's shape ---------------------------------------------------------------------
def test_the_rules_in_output_order():
    assert list(RULES) == ["literal", "normalized", "squad_exact_match", "token_f1", "contains",
                           "checklist", "equivalent"]
    assert [r.name for r in rules.rules_for("v2.0")] == list(RULES)


@pytest.mark.parametrize("cls", list(RULES.values()), ids=list(RULES))
def test_every_rule_declares_everything(cls):
    rule = rules.rules_for()[list(RULES.values()).index(cls)]
    assert rule.name and cls.name == rule.signature().split("|")[0]
    assert rule.signature().endswith(f"|version:{__version__}")
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in rule.fields())
    assert cls.columns and all(isinstance(c, Column) for c in cls.columns)
    assert all(c.kind in (BINARY, GRADED, COUNT, LABEL) for c in cls.columns)
    assert all(bool(c.labels) == (c.kind == LABEL) for c in cls.columns)
    assert cls.measures and all(isinstance(m, Measure) for m in cls.measures)
    for m in cls.measures:
        assert m.kind in (BINARY, GRADED) and m.label and m.short and m.tag and m.name
        assert set(m.inputs) <= {c.name for c in cls.columns}
        assert (m.derive is None) == (m.reads == ())
    assert cls.column == cls.measures[0].column and cls.measures[0].name == cls.name


def test_columns_and_measures_are_unique():
    stored = [c.name for c in rules.stored_columns()]
    assert len(stored) == len(set(stored))
    named = [m.column for m in rules.measures()]
    assert len(named) == len(set(named))
    assert len({m.tag for m in rules.measures()}) == len(named)


def test_what_each_consumer_asks_for():
    facts = (Fact("place", ("west",)), Fact("time", ("dawn",)))
    equivalent = ["equivalent", "equivalent_step"]
    assert rules.output_columns(facts) == [*COLUMNS[:8], "fact_place", "fact_time", *equivalent]
    assert rules.output_columns() == [*COLUMNS[:8], "facts_missing", *equivalent]
    assert [m.column for m in rules.measures()] == [*COLUMNS[:5], *COLUMNS[7:10]]
    assert [m.column for m in rules.binary_measures()] == [
        "literal_match", "normalized_match", "squad_exact_match", "contains",
        "checklist_full_match", "equivalent"]
    assert [(m.column, m.label) for m in rules.measures()] == [
        ("literal_match", "literal"), ("normalized_match", "normalized"),
        ("squad_exact_match", "SQuAD exact match"), ("token_f1", "token F1"),
        ("contains", "contains a reference"), ("checklist_full_match", "checklist, all facts"),
        ("partial_credit", "checklist, share of facts"),
        ("equivalent", "equivalent to a reference")]
    assert [m.name for m in rules.measures()] == [
        "literal", "normalized", "squad_exact_match", "token_f1", "contains", "checklist",
        "partial_credit", "equivalent"]
    assert [m.tag for m in rules.measures()] == [
        "Literal", "Normalized", "Squad", "TokenF", "Contains", "Checklist", "PartialCredit",
        "Equivalent"]
    assert rules.verdict_columns() == [*COLUMNS[:5], "checklist_full_match", "equivalent"]
    assert rules.column_of("equivalent_step") == Column("equivalent_step", LABEL,
                                                        labels=EQUIVALENCE_LABELS)
    assert EQUIVALENCE_LABELS[-1] == "none" and "negation" in EQUIVALENCE_LABELS
    assert rules.column_of("facts_present") == Column("facts_present", COUNT, optional=True,
                                                      at_most="facts_total")
    assert rules.column_of("fact_anything") == Column("fact_anything", BINARY, optional=True)
    assert rules.column_of("system") is None


def test_partial_credit_is_declared_by_the_checklist():
    credit = rules.measure("partial_credit")
    assert credit in Checklist.measures and credit.kind == GRADED and credit.optional
    assert credit.reads == ("facts_present", "facts_total") and credit.derive is partial_credit
    frame = pd.DataFrame({"facts_present": [1, 4], "facts_total": [4, 4]})
    assert credit.values(frame).tolist() == [1 / 4, 1.0]


def test_lookup_by_column_names_the_valid_ones():
    with pytest.raises(UsageError) as caught:
        rules.measure("exact")
    assert str(caught.value) == (
        "unknown rule 'exact' (rules: literal_match, normalized_match, squad_exact_match, "
        "token_f1, contains, checklist_full_match, partial_credit, equivalent)")


def test_one_compute_for_every_rule():
    from recallscore_nb.core import engine

    attempts = engine.Attempts(["The west drawer.", "east"])
    target = Target(references=engine.References.build("the west drawer", 2),
                    facts=(Fact("place", ("west",)),))
    out = {}
    for rule in rules.rules_for():
        got = rule.compute(attempts, target)
        assert list(got) == rule.output_columns(target.facts)
        out.update(got)
    assert [v.tolist() for v in out.values()] == [
        [False, False], [True, False], [True, False], [1.0, 0.0], [True, False], [1, 0],
        [1, 1], [True, False], [True, False], [True, False], ["exact", "none"]]


def test_the_checklist_needs_facts():
    from recallscore_nb.core import engine

    with pytest.raises(UsageError, match="the checklist needs facts"):
        Checklist().compute(engine.Attempts(["a"]), Target())


# --- one module names the columns --------------------------------------------------------------
def _export_lists(source: str, path: Path) -> tuple[set[str], set[int]]:
    """The names a module exports and the lines of the lists naming them: its ``__all__``,
    and, in the package's ``__init__``, the table of where each public name lives."""
    tables = {"__all__", "_LAZY"} if path == PACKAGE / "__init__.py" else {"__all__"}
    names, lines = set(), set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) in tables
                                                for t in node.targets):
            lines |= set(range(node.lineno, node.end_lineno + 1))
            if isinstance(node.value, ast.Dict):  # ``_LAZY``: the public names are its keys
                names |= {key.value for key in node.value.keys if isinstance(key, ast.Constant)}
            elif any(getattr(t, "id", None) == "__all__" for t in node.targets):
                with contextlib.suppress(ValueError):  # ``["__version__", *_LAZY]``
                    names |= set(ast.literal_eval(node.value))
    return names, lines


PROSE_WORDS = {"contains", "equivalent"}
"""Column names that are also English words: in a string or comment they name the column only
as a subscript (``row["contains"]``) or in double backquotes (````contains````)."""
RULE_WORDS = {"equivalent"}
"""Column names that are also their rule's name and a parameter's: in double backquotes they
name the rule (the ````equivalent```` rule), so a string names the column when it is the name
alone (``"equivalent"``, subscript or not)."""
STEP_MODULES = {"core/equivalence/cascade.py"}
"""Modules that name the equivalent rule's steps: there a step's name (``contains``, a value of
``equivalent_step``) is no column."""


def _prose(match: re.Match, text: str, before: str = "") -> bool:
    """Whether a match of a :data:`PROSE_WORDS` column in ``text`` (a string or comment token,
    after the token ``before``) is only the English word."""
    if match.group(1) not in PROSE_WORDS:
        return False
    whole = text.strip("rbuRBU")[1:-1] == match.group(1)
    if match.group(1) in RULE_WORDS:
        return not whole
    subscript = before == "[" and whole
    ticked = text[max(match.start() - 2, 0):match.start()] == "``"
    return not (subscript or ticked)


def _column_mentions(path: Path) -> list[tuple[int, str]]:
    """(line, name) of each rule column named in a module: in a string, a docstring or a comment,
    or as an attribute (``row.token_f1``).

    Some rule functions share a column's spelling; their names are not columns: a name followed
    by ``(`` (a call, ``token_f1(attempts, refs)``), a Sphinx reference to a function
    (``:func:`partial_credit```), and the exact name in the module's export list (``__all__``;
    the package's ``__init__`` also lists where each public name lives)."""
    source = path.read_text("utf-8")
    names, lines = _export_lists(source, path)
    exports = {f'"{name}"' for name in names} | {f"'{name}'" for name in names}
    pattern = re.compile(r"\b(" + "|".join(COLUMNS) + r")\b(?!\s*\()")
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for i, tok in enumerate(tokens):
        if tok.type in (tokenize.STRING, tokenize.COMMENT):
            if tok.string in exports and tok.start[0] in lines:
                continue
            found += [(tok.start[0] + tok.string[:m.start()].count("\n"), m.group(1))
                      for m in pattern.finditer(tok.string)
                      if not re.search(r":func:`[~\w.]*$", tok.string[:m.start()])
                      and not _prose(m, tok.string, tokens[i - 1].string if i else "")]
        elif (tok.type == tokenize.NAME and tok.string in COLUMNS and i
              and tokens[i - 1].string == "." and tokens[i + 1].string != "("):
            found.append((tok.start[0], tok.string))
    return found


def test_the_rule_columns_are_named_in_the_registry_only():
    mentions = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if path == REGISTRY:
            continue
        found = _column_mentions(path)
        if where in STEP_MODULES:
            found = [(line, name) for line, name in found if name not in EQUIVALENCE_LABELS]
        if found:
            mentions[where] = found
    assert mentions == {}
    assert {name for _, name in _column_mentions(REGISTRY)} == set(COLUMNS)


def test_the_check_finds_a_planted_mention(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('"""Sum ``token_f1``, not :func:`token_f1`."""\n__all__ = ["token_f1"]\n'
                       'x = row.facts_total\ny = token_f1(a, b)\n'
                       'z = {"literal_match": 1}  # partial_credit\nw = x["token_f1"]\n',
                       encoding="utf-8")
    assert _column_mentions(planted) == [(1, "token_f1"), (3, "facts_total"),
                                         (5, "literal_match"), (5, "partial_credit"),
                                         (6, "token_f1")]
    prose = tmp_path / "prose.py"
    prose.write_text('"""It contains ``contains``."""\nx = row["contains"]  # what it contains\n',
                     encoding="utf-8")
    assert _column_mentions(prose) == [(1, "contains"), (2, "contains")]
    named = tmp_path / "named.py"
    named.write_text('"""The ``equivalent`` rule, if equivalent."""\nx = row["equivalent"]\n'
                     'y = ("equivalent",)  # equivalent\n', encoding="utf-8")
    assert _column_mentions(named) == [(2, "equivalent"), (3, "equivalent")]


# --- a new rule is one class -------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Shouting(Rule):
    """A toy rule: the attempt is written in capitals (and has a letter)."""

    name = "shouting"
    measures = (Measure("shouting_match", BINARY, "in capitals", "capitals", "Shouting"),)

    def fields(self):
        return [("case", "upper")]

    def compute(self, attempts, target):
        upper = pc.equal(attempts.raw, pc.utf8_upper(attempts.raw))
        lower = pc.equal(attempts.raw, pc.utf8_lower(attempts.raw))
        return {self.column: pc.and_(upper, pc.invert(lower)).to_numpy(zero_copy_only=False)}


@pytest.fixture
def with_shouting(monkeypatch):
    monkeypatch.setattr(rules, "RULES", {**RULES, "shouting": Shouting})


def test_a_new_rule_is_scored_with_every_other(with_shouting):
    from recallscore_nb.core.items import Item, Items
    from recallscore_nb.core.scoring import score_items

    bench = load_benchmark()
    scores = score_benchmark(bench, ["THE WEST DRAWER", "the west drawer"])
    assert scores.columns.tolist()[-1] == "shouting_match"
    assert scores.columns.tolist()[2:] == rules.output_columns(bench.facts)
    assert scores["shouting_match"].tolist() == [True, False]
    items = Items("demo", "", (Item("q1", ("west",), (Fact("place", ("west",)),)),))
    table = score_items(items, pd.DataFrame({"item": ["q1", "q1"], "attempt": ["WEST", "west"]}))
    assert table.columns.tolist()[-4:] == ["facts_missing", "equivalent", "equivalent_step",
                                           "shouting_match"]
    assert table["shouting_match"].tolist() == [True, False]


def test_a_new_rule_is_signed_listed_and_summarized(with_shouting, tmp_path):
    from recallscore_nb.analysis.agreement import binary_rules, side_by_side
    from recallscore_nb.analysis.summary import read_scored, summary_tables
    from recallscore_nb.cli.handlers import signature_command
    from recallscore_nb.cli.main import build_parser
    from recallscore_nb.io.scored import write_scored

    rule_lines = [line for line in signature_command() if not line.startswith("normalizer|")]
    assert rule_lines[-1] == f"shouting|case:upper|version:{__version__}"
    assert "partial_credit, equivalent, shouting_match (default: all)" in " ".join(
        _help(build_parser(), "summarize").split())
    assert binary_rules()["shouting_match"] == "shouting"
    attempts = ["THE COPPER TOKEN", "the copper token", "West drawer", "WEST DRAWER"]
    scored = score_benchmark(load_benchmark(), pd.DataFrame(
        {"attempt": attempts, "system": ["a", "a", "b", "b"]}))
    assert side_by_side(scored, [None] * 4)["shouting"].tolist() == [True, False, False, True]
    path = tmp_path / "s.csv"
    write_scored(scored, str(path))
    back = read_scored(str(path), rules=["shouting_match"])
    assert back["shouting_match"].dtype == "boolean"
    table, _, pairs = summary_tables(back, paired=("a", "b"), resamples=20, seed=0)
    shouting = table[table["rule"] == "shouting_match"]
    assert shouting[["system", "mean"]].values.tolist() == [["a", 0.5], ["b", 0.5]]
    assert pairs["rule"].tolist()[-1] == "shouting_match"
    notes = dict(zip(pairs["rule"], pairs["mcnemar_note"]))  # McNemar's test: binary only
    assert notes["token_f1"] == "not a binary rule" != notes["shouting_match"]


def _help(parser, command: str) -> str:
    sub = parser._subparsers._group_actions[0].choices[command]
    return sub.format_help()
