"""Items files read a block at a time: the fast path (one parse and one check per block)
gives exactly what the per-line path gives, items and errors alike, and is taken for
plainly valid blocks."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from recallscore_nb.core.errors import ItemsFormatError
from recallscore_nb.io import items as items_io
from recallscore_nb.io.items import load_items
from tests.conftest import CAPITAL, KITE, write_items

HYPOTHESIS = settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def outcome(path):
    """The items read, or every error's text and the message raised."""
    try:
        return "items", load_items(path).items
    except ItemsFormatError as err:
        return "errors", str(err), [str(e) for e in err.errors]


def per_line(path, monkeypatch):
    """:func:`outcome` with the fast path switched off (every block read line by line)."""
    with monkeypatch.context() as patch:
        patch.setattr(items_io, "_fast_block", lambda block: None)
        return outcome(path)


@pytest.fixture
def fast_blocks(monkeypatch):
    """What the fast path returned for each block (None: the block was read line by line)."""
    results = []
    fast = items_io._fast_block

    def spy(block):
        results.append(fast(block))
        return results[-1]

    monkeypatch.setattr(items_io, "_fast_block", spy)
    return results


# --- valid files: the same items, by the fast path --------------------------------------------
def item_line(n: int, *, ascii_only: bool, spaced: bool) -> str:
    """A valid line of one of five shapes, chosen by ``n``."""
    shape = n % 5
    if shape == 0:  # one reference, a checklist
        record = dict(KITE, item=f"kite{n}")
    elif shape == 1:  # alternatives, no checklist, fields of its own the reader skips
        record = dict(CAPITAL, item=f"capital{n}", source="nq", n=-3, w=0.5, ok=True, x=None)
    elif shape == 2:  # non-ASCII text (an emoji: a surrogate pair in escapes), alternatives
        record = {"item": f"café{n}", "referenceAnswer": ["Le Café: naïve Ωmega!", "café ΩMEGA 😀"],
                  "factChecklist": [{"fact": "drink", "requiredTerms": ["CAFÉ", "ωmega"]}]}
    elif shape == 3:  # many facts, terms repeated and spelt differently
        words = [f"w{i}" for i in range(40)]
        record = {"item": f"many{n}", "referenceAnswer": "The " + " ".join(words) + ".",
                  "factChecklist": [{"requiredTerms": [w.upper(), f"{w}!", w], "fact": f"f{i}"}
                                    for i, w in enumerate(words)]}
    else:  # keys in another order, quotes and colons inside the strings
        record = {"factChecklist": [{"fact": "q", "requiredTerms": ['say "hi"']}],
                  "referenceAnswer": 'At 10:30 they say "hi": twice', "item": f'q"{n}:'}
    separators = (" , ", " : ") if spaced else (", ", ": ")
    return json.dumps(record, ensure_ascii=ascii_only, separators=separators)


@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("spaced", [True, False])
def test_valid_files_of_every_shape_take_the_fast_path_and_equal_the_per_line_path(
        tmp_path, monkeypatch, fast_blocks, ascii_only, spaced):
    monkeypatch.setattr(items_io, "_BLOCK_LINES", 7)
    lines = [item_line(n, ascii_only=ascii_only, spaced=spaced) for n in range(40)]
    path = write_items(tmp_path, lines[:20] + ["", "   "] + lines[20:])
    fast = outcome(path)
    assert fast[0] == "items" and len(fast[1]) == 40
    assert len(fast_blocks) == 6 and None not in fast_blocks
    assert fast == per_line(path, monkeypatch)
    capital = fast[1][1]
    assert (capital.references, capital.facts) == (("Paris", "Lutetia"), None)
    assert fast[1][2].references == ("Le Café: naïve Ωmega!", "café ΩMEGA 😀")
    assert len(fast[1][3].facts) == 40 and fast[1][3].facts[7].terms == ("W7", "w7!", "w7")


def test_a_block_repeating_an_id_of_an_earlier_block_is_read_line_by_line(
        tmp_path, monkeypatch, fast_blocks):
    monkeypatch.setattr(items_io, "_BLOCK_LINES", 2)
    monkeypatch.chdir(tmp_path)
    write_items(tmp_path, [KITE, CAPITAL, dict(CAPITAL, item="x"), KITE])
    with pytest.raises(ItemsFormatError) as caught:
        load_items("items.jsonl")
    assert str(caught.value) == ("items.jsonl: line 4 (id kite): item: duplicate item id "
                                 "(first at line 1)")
    assert fast_blocks[0] is not None and fast_blocks[1] is not None


# --- any file: the same items or the same errors ---------------------------------------------
WORDS = ["west", "door", "Paris", "café", "ΩMEGA", "naïve", "the", "x1", "Straße", "10:30",
         'say "hi"']
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
FAULTS = {  # one change that makes a record invalid (or, for "extra", still valid)
    "id": lambda r: {**r, "item": ""}, "id type": lambda r: {**r, "item": 7},
    "reference": lambda r: {**r, "referenceAnswer": []},
    "reference item": lambda r: {**r, "referenceAnswer": ["a", ""]},
    "checklist": lambda r: {**r, "factChecklist": []},
    "no checklist": lambda r: {k: v for k, v in r.items() if k != "factChecklist"},
    "null checklist": lambda r: {**r, "factChecklist": None},
    "fact": lambda r: {**r, "factChecklist": [{"fact": "2x", "requiredTerms": ["west"]}]},
    "fact case": lambda r: {**r, "factChecklist": [{"fact": "a", "requiredTerms": ["x"]},
                                                  {"fact": "A", "requiredTerms": ["x"]}]},
    "terms": lambda r: {**r, "factChecklist": [{"fact": "a", "requiredTerms": []}]},
    "term": lambda r: {**r, "factChecklist": [{"fact": "a", "requiredTerms": ["!!"]}]},
    "absent term": lambda r: {**r, "factChecklist": [{"fact": "a", "requiredTerms": ["nowhere"]}]},
    "term type": lambda r: {**r, "factChecklist": [{"fact": "a", "requiredTerms": "west"}]},
    "fact type": lambda r: {**r, "factChecklist": ["a"]},
    "extra": lambda r: {**r, "extra": [1, {"k": None}]},
    "plain extras": lambda r: {**r, "source": "nq", "n": -3, "w": 0.5, "ok": False, "x": None},
    "large extra": lambda r: {**r, "n": 2**63},
    "null checklist and extra": lambda r: {**r, "factChecklist": None, "source": "nq"},
    "fact extra": lambda r: {**r, "factChecklist": [{"fact": "a", "requiredTerms": ["x"], "n": 1}]},
    "number": lambda r: {**r, "referenceAnswer": 1.5},
}


@st.composite
def records(draw):
    """A record that is valid unless a fault is drawn; its item id "auto" stands for an id
    unique in the file."""
    common = draw(st.sampled_from(WORDS))  # one word every alternative holds
    alternatives = [f"{a} {common}" for a in draw(st.lists(text, min_size=1, max_size=3))]
    reference = alternatives[0] if draw(st.booleans()) else alternatives
    record = {"item": draw(st.sampled_from(["auto"] * 6 + ["q1", "é"])),
              "referenceAnswer": reference}
    if isinstance(reference, str) or draw(st.booleans()):
        names = draw(st.lists(st.sampled_from(["a", "B", "f_1", "Zeta"]), min_size=1,
                              unique=True))
        record["factChecklist"] = [
            {"fact": name, "requiredTerms": draw(st.lists(
                st.sampled_from([common, common.upper(), f"{common}!", "x1 " + common]
                                if "x1" in reference else [common, f"({common})"]),
                min_size=1, max_size=3))}
            for name in names]
    fault = draw(st.sampled_from([None] * len(FAULTS) + list(FAULTS)))
    return FAULTS[fault](record) if fault else record


# whole lines that are not plain records: JSON faults the parser's hooks and the text
# checks exist for, and text that only parses when joined to its neighbours
ODD_LINES = ['{"item": "d", "item": "d", "referenceAnswer": ["a"]}',
             '{"item": "n", "referenceAnswer": ["a"], "x": NaN}',
             '{"item": "s", "referenceAnswer": ["\\ud800"]}',
             '{"item": "p", "referenceAnswer": ["\\ud83d\\ude00"]}',
             '{"item": "big", "referenceAnswer": ["a"], "x": 99999999999999999999}',
             '{"item": "m", "referenceAnswer": ["a"',
             '"b"]}',
             '{"item": "two", "referenceAnswer": ["a"]}, {"item": "three", "referenceAnswer": ["a"]}',
             '[', ']', '0', '"q1"', '{"item": "q1"} x', "\t", "{" * 600 + "}" * 600,
             '{"item": "nul", "referenceAnswer": null}', '{"item": ":", "referenceAnswer": [":"]}',
             '{"item" : "sp", "referenceAnswer" :["a"], "item":"sp"}']
lines = st.lists(st.one_of(
    st.tuples(records(), st.booleans(), st.booleans()),
    st.sampled_from(ODD_LINES)), min_size=1, max_size=12)


def as_text(lines) -> list[str]:
    """The drawn lines as text, each "auto" item id made unique."""
    out = []
    for n, line in enumerate(lines):
        if isinstance(line, tuple):
            record, ascii_only, spaced = line
            if record.get("item") == "auto":
                record = {**record, "item": f"auto{n}"}
            line = json.dumps(record, ensure_ascii=ascii_only,
                              separators=(", ", " : ") if spaced else (",", ":"))
        out.append(line)
    return out


@HYPOTHESIS
@given(drawn=lines, block=st.integers(1, 5))
def test_any_file_gives_the_per_line_paths_items_or_errors(tmp_path, drawn, block):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(items_io, "_BLOCK_LINES", block)
        path = write_items(tmp_path, as_text(drawn))
        assert outcome(path) == per_line(path, patch)


def test_lines_that_parse_only_when_joined_are_read_line_by_line(tmp_path, fast_blocks):
    """A line leaving an array open and one holding two records: joined, they would make
    two records from three lines; the separator between lines keeps them apart."""
    lines = ['{"item": "a", "referenceAnswer": ["x"', '"y"]}',
             '{"item": "b", "referenceAnswer": ["x"]}, {"item": "c", "referenceAnswer": ["x"]}']
    with pytest.raises(ItemsFormatError) as caught:
        load_items(write_items(tmp_path, lines))
    assert fast_blocks == [None]
    assert [e.location for e in caught.value.errors] == ["line 1", "line 2", "line 3"]


# --- a fault deep inside a large block keeps today's message ----------------------------------
@pytest.mark.parametrize(("fault", "message"), [
    ('{"item": "k9998", "item": "k9998", "referenceAnswer": ["a"]}',
     "items.jsonl: line 9999 (id k9998): item: duplicate key"),
    ('{"item": "k9998", "referenceAnswer": ["a\\udc00"]}',
     "items.jsonl: line 9999 (id k9998): referenceAnswer[0]: contains a lone surrogate "
     "(\\udc00): not Unicode text"),
    (json.dumps(dict(KITE, item="k9998", factChecklist=[{"fact": "bird",
                                                         "requiredTerms": ["red hawk"]}])),
     'items.jsonl: line 9999 (id k9998): referenceAnswer: expected the term "red hawk" of '
     'fact bird, got "A red kite nests by the river."'),
])
def test_a_fault_on_line_9999_of_10000_is_named_as_line_by_line(tmp_path, monkeypatch,
                                                                 fault, message):
    monkeypatch.chdir(tmp_path)
    lines = [json.dumps(dict(KITE, item=f"k{n}")) for n in range(10_000)]
    lines[9_998] = fault
    write_items(tmp_path, lines)
    with pytest.raises(ItemsFormatError) as caught:
        load_items("items.jsonl")
    assert str(caught.value) == message
    assert len(caught.value.errors) == 1
