"""The scored-table writers (CSV, JSONL) give the same bytes as the per-cell writers they
replaced, on a frame with every kind of column a scored table carries; JSONL writes what
JSON cannot hold natively (timestamps, decimals) or refuses it (Infinity) in one line.

``old_csv`` and ``old_jsonl`` are the writers as they were before they were vectorized
(kept here, verbatim in effect, as the reference the bytes must match)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.csvtext import csv_text
from recallscore_nb.core.engine import STRING
from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.attempts import FORMATS, read_attempts
from recallscore_nb.io.scored import write_scored
from tests.attempts_fixtures import write_jsonl, write_parquet

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


# --- the writers as they were ---------------------------------------------------------------
def _old_cell(value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return value


def _old_csv_ready(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for column in out.columns:
        if pd.api.types.is_bool_dtype(out[column]):
            missing = out[column].isna().to_numpy()
            text = np.where(out[column].fillna(False).to_numpy(dtype=bool), "true", "false")
            out[column] = np.where(missing, "", text).astype(object)
        elif out[column].dtype == object:
            out[column] = pd.array([_old_cell(v) for v in out[column]], dtype=object)
    return out


def old_csv(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    _old_csv_ready(frame).to_csv(buffer, index=False, lineterminator="\n", encoding="utf-8")
    return buffer.getvalue()


def _old_json_value(value):
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    return value.item() if isinstance(value, np.generic) else value


def old_jsonl(frame: pd.DataFrame) -> bytes:
    columns = list(frame.columns)
    values = [frame[c].to_numpy(dtype=object) for c in columns]
    lines = []
    for row in zip(*values):
        record = {c: _old_json_value(v) for c, v in zip(columns, row)}
        lines.append(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")
    return "".join(lines).encode("utf-8")


# --- a frame with every kind of column ------------------------------------------------------
TEXTS = ["plain", "", "comma, inside", 'a "quoted" word', "line\nbreak", "carriage\rreturn",
         "  leading and trailing  ", "naïve café ☕", "tab\there", "NA", "null", "x" * 300,
         "'single'", "back\\slash", "emoji 🎉 \u2028 sep", "-", "0.10", "1e5", "\x00nul",
         "true"]


FLOATS = [0.0, 1.0, 0.1, 2 / 3, 1e-7, 1e16, 123456789.123, -0.0, float("nan"), 1 / 3,
          5e-324, 1.7976931348623157e308, 0.5, 100.0, 0.30000000000000004, 7.0, 1e15,
          0.000123, 9.999999999999999e22, 2.5]


def varied_frame(n: int = 20) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    nullable = pd.array([(True, False, None)[i % 3] for i in range(n)], dtype="boolean")
    frame = pd.DataFrame({
        "id": pd.array([f"R{i:02d}" for i in range(n)], dtype=STRING),
        "attempt": pd.array([TEXTS[i % len(TEXTS)] for i in range(n)], dtype=STRING),
        "system, with comma": pd.array([("s1", None)[i % 2] for i in range(n)], dtype=STRING),
        "object mix": pd.array([[1, "x", True, None, 2.5, False, "a,b", np.int64(4), 0.1,
                                 np.float64(1 / 3)][i % 10] for i in range(n)], dtype=object),
        "literal_match": rng.random(n) < 0.5,
        "token_f1": np.array([FLOATS[i % len(FLOATS)] for i in range(n)]),
        "facts_present": rng.integers(0, 5, n),
        "small": rng.integers(0, 5, n).astype(np.int8),
        "single": np.array([FLOATS[i % len(FLOATS)] for i in range(n)], dtype=np.float64)
                    .clip(-1e30, 1e30).astype(np.float32),
        "nullable bool": nullable,
        "nullable int": pd.array([(1, None)[i % 2] for i in range(n)], dtype="Int64"),
        "python str": np.array([TEXTS[(i * 3) % len(TEXTS)] for i in range(n)], dtype=object),
        'quote"name': rng.random(n) < 0.3,
    })
    for i in range(12):  # a block of fact columns, as a scored table has
        frame[f"fact_{i}"] = rng.random(n) < 0.5
    return frame


@pytest.mark.parametrize("n", [0, 1, 20, 97])
def test_csv_bytes_equal_the_old_writer(tmp_path, n):
    frame = varied_frame(max(n, 2)).head(n)
    write_scored(frame, str(tmp_path / "s.csv"))
    assert (tmp_path / "s.csv").read_bytes() == old_csv(frame)
    assert csv_text(frame).encode("utf-8") == old_csv(frame)


def test_csv_on_stdout_equals_the_file(tmp_path, capsys):
    frame = varied_frame()
    write_scored(frame, None)
    assert capsys.readouterr().out.encode("utf-8") == old_csv(frame)


def test_csv_of_a_wide_frame_in_several_chunks(tmp_path, monkeypatch):
    from recallscore_nb.core import csvtext as tables

    monkeypatch.setattr(tables, "_CHUNK_CELLS", 50)  # a few rows per chunk
    frame = varied_frame(31)
    write_scored(frame, str(tmp_path / "s.csv"))
    assert (tmp_path / "s.csv").read_bytes() == old_csv(frame)


def test_csv_of_dates_is_not_cut_into_chunks(tmp_path, monkeypatch):
    """pandas writes a column of datetimes as dates when every one is at midnight: decided
    over the whole column, so such a table is written in one piece."""
    from recallscore_nb.core import csvtext as tables

    monkeypatch.setattr(tables, "_CHUNK_CELLS", 4)
    frame = pd.DataFrame({"id": ["a", "b", "c", "d"], "ok": [True, False, True, True],
                          "at": pd.to_datetime(["2026-01-01", "2026-01-02", "2026-01-03",
                                                "2026-01-03 12:30"], format="ISO8601")})
    write_scored(frame, str(tmp_path / "s.csv"))
    assert (tmp_path / "s.csv").read_bytes() == old_csv(frame)
    assert b"2026-01-01 00:00:00" in old_csv(frame)


def test_csv_of_a_frame_with_only_booleans(tmp_path):
    frame = pd.DataFrame({"a": [True, False], "b": [False, False]})
    assert csv_text(frame) == "a,b\ntrue,false\nfalse,false\n"


@pytest.mark.parametrize("n", [0, 1, 20, 97])
def test_jsonl_bytes_equal_the_old_writer(tmp_path, n):
    frame = varied_frame(max(n, 2)).head(n).drop(columns=["object mix"])
    frame["object mix"] = pd.array([[1, "x", True, None, 2.5, False, {"k": [1, "v"]}, np.int64(4),
                                     ["a", None], float("nan")][i % 10] for i in range(n)],
                                   dtype=object)
    write_scored(frame, str(tmp_path / "s.jsonl"))
    assert (tmp_path / "s.jsonl").read_bytes() == old_jsonl(frame)


def test_jsonl_of_a_wide_frame_in_several_chunks(tmp_path, monkeypatch):
    from recallscore_nb.io.scored import jsonl as attempts

    monkeypatch.setattr(attempts, "_CHUNK_CELLS", 50)
    frame = varied_frame(31)
    write_scored(frame, str(tmp_path / "s.jsonl"))
    assert (tmp_path / "s.jsonl").read_bytes() == old_jsonl(frame)


# --- what JSON cannot hold natively --------------------------------------------------------


# Text that is easy to lose on the way through a file: non-ASCII, tabs, quotes, commas,
# line breaks inside a field, surrounding spaces, the empty attempt, and the words pandas
# would take for missing values.
TRICKY = [
    "  café ☕  ",
    "tab\there",
    'say "hi", ok',
    "line1\nline2",
    "cr\r\nlf",
    "",
    "NA",
    "null",
    "None",
    "#not a comment",
    "日本語の答え",
]


def temp_files(directory: Path = Path(".")) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


# --- writing -----------------------------------------------------------------------------
def scored() -> pd.DataFrame:
    """A small scored table with every column type the scorer writes."""
    return pd.DataFrame({
        "id": pd.array(["007", "1"], dtype=STRING),
        "attempt": pd.array(["a", ""], dtype=STRING),
        "ok": np.array([True, False]),
        "token_f1": np.array([2 / 3, 0.1 + 0.2]),
        "facts_present": np.array([2, 0], dtype=np.int64),
    })


def test_csv_writer_spells_booleans_and_keeps_full_precision():
    write_scored(scored(), "out.csv")
    assert Path("out.csv").read_bytes() == (
        b"id,attempt,ok,token_f1,facts_present\n"
        b"007,a,true,0.6666666666666666,2\n"
        b"1,,false,0.30000000000000004,0\n"
    )


def test_csv_writer_to_stdout(capsys):
    write_scored(scored(), None)
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "007,a,true,0.6666666666666666,2"


def test_tricky_text_round_trips_through_csv_byte_exact():
    write_scored(pd.DataFrame({"attempt": TRICKY}), "in.csv")
    expected = (
        'attempt\n'
        '  café ☕  \n'
        'tab\there\n'
        '"say ""hi"", ok"\n'
        '"line1\nline2"\n'
        '"cr\r\nlf"\n'
        '""\n'
        'NA\nnull\nNone\n'
        '#not a comment\n'
        '日本語の答え\n'
    ).encode("utf-8")
    assert Path("in.csv").read_bytes() == expected
    frame = read_attempts("in.csv")
    assert frame["attempt"].tolist() == TRICKY
    write_scored(frame, "out.csv")
    assert Path("out.csv").read_bytes() == (
        'id,attempt\n'
        '0,  café ☕  \n'
        '1,tab\there\n'
        '2,"say ""hi"", ok"\n'
        '3,"line1\nline2"\n'
        '4,"cr\r\nlf"\n'
        '5,\n'
        '6,NA\n7,null\n8,None\n'
        '9,#not a comment\n'
        '10,日本語の答え\n'
    ).encode("utf-8")
    assert read_attempts("out.csv")["attempt"].tolist() == TRICKY


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_tricky_text_round_trips(suffix):
    frame = read_attempts(write_parquet("in.parquet", {"attempt": TRICKY, "who": ["ü"] * len(TRICKY)}))
    write_scored(frame, "out" + suffix)
    back = read_attempts("out" + suffix)
    assert back["attempt"].tolist() == TRICKY
    assert back["id"].tolist() == [str(i) for i in range(len(TRICKY))]
    assert back["who"].tolist() == ["ü"] * len(TRICKY)


def test_jsonl_writer_values_and_types():
    write_scored(scored(), "out.jsonl")
    text = Path("out.jsonl").read_text(encoding="utf-8")
    assert text.endswith("\n") and "\r" not in text
    records = [json.loads(line) for line in text.splitlines()]
    assert records == [
        {"id": "007", "attempt": "a", "ok": True, "token_f1": 2 / 3, "facts_present": 2},
        {"id": "1", "attempt": "", "ok": False, "token_f1": 0.1 + 0.2, "facts_present": 0},
    ]
    assert list(records[0]) == ["id", "attempt", "ok", "token_f1", "facts_present"]
    assert '"token_f1": 0.6666666666666666' in text


def test_jsonl_writer_keeps_non_ascii_as_is():
    write_scored(pd.DataFrame({"attempt": ["日本 ☕\t"]}), "out.jsonl")
    assert Path("out.jsonl").read_bytes() == '{"attempt": "日本 ☕\\t"}\n'.encode("utf-8")


def test_parquet_writer_types_and_metadata():
    meta = {"version": "9.9", "signatures": ["a|version:9.9"], "benchmark_sha256": "ab"}
    write_scored(scored(), "out.parquet", metadata=meta)
    table = pq.read_table("out.parquet")
    assert table.schema.field("id").type == pa.string()
    assert table.schema.field("ok").type == pa.bool_()
    assert table.schema.field("token_f1").type == pa.float64()
    assert table.schema.field("facts_present").type == pa.int64()
    assert json.loads(table.schema.metadata[b"recallscore"]) == meta
    assert table.column("token_f1").to_pylist() == [2 / 3, 0.1 + 0.2]
    assert table.column("id").to_pylist() == ["007", "1"]


def test_parquet_writer_without_metadata_adds_no_key():
    write_scored(scored(), "out.parquet")
    assert b"recallscore" not in (pq.read_table("out.parquet").schema.metadata or {})


@pytest.mark.parametrize("suffix", FORMATS)
def test_writer_leaves_no_temporary_file(suffix):
    Path("sub").mkdir()
    write_scored(scored(), f"sub/out{suffix}")
    assert sorted(p.name for p in Path("sub").iterdir()) == [f"out{suffix}"]


def test_writer_creates_missing_directories():
    write_scored(scored(), "a/b/out.csv")
    assert Path("a/b/out.csv").read_text().startswith("id,attempt,")


def test_writer_rejects_unknown_extension_and_writes_nothing():
    with pytest.raises(UsageError) as caught:
        write_scored(scored(), "out.tsv")
    assert str(caught.value) == "out.tsv: --out must end in .csv, .jsonl, .parquet (got '.tsv')"
    assert list(Path(".").iterdir()) == []


def test_failed_write_leaves_the_old_file_and_no_temporary_file():
    Path("out.jsonl").write_text("old\n")
    frame = pd.DataFrame({"attempt": ["a", "b"], "thing": [1, object()]})
    with pytest.raises(UsageError, match=r"out\.jsonl: row 1: thing: .* cannot be written to JSON"):
        write_scored(frame, "out.jsonl")  # the first line is written, the second cannot be
    assert Path("out.jsonl").read_text() == "old\n"
    assert temp_files() == []


def test_jsonl_writer_writes_missing_carried_values_as_null():
    frame = read_attempts(write_jsonl("a.jsonl", [{"attempt": "a", "note": "x"}, {"attempt": "b"}]))
    write_scored(frame, "out.jsonl")
    lines = Path("out.jsonl").read_text().splitlines()
    records = [json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} is not JSON")) for line in lines]
    assert [r["note"] for r in records] == ["x", None]


def test_jsonl_writer_writes_carried_nulls_from_parquet_as_null():
    frame = read_attempts(write_parquet("a.parquet", {"attempt": ["a", "b"], "note": ["x", None]}))
    write_scored(frame, "out.jsonl")
    records = [json.loads(line) for line in Path("out.jsonl").read_text().splitlines()]
    assert [r["note"] for r in records] == ["x", None]


def test_csv_writer_writes_carried_nulls_as_empty_fields():
    frame = read_attempts(write_parquet("a.parquet", {"attempt": ["a", "b"], "note": ["x", None]}))
    write_scored(frame, "out.csv")
    assert Path("out.csv").read_text() == "id,attempt,note\n0,a,x\n1,b,\n"
