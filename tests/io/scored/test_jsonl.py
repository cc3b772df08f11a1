"""Scored tables as JSON lines: what JSON cannot hold natively (dates, decimals, nested
values) written as documented, and what it cannot hold at all refused in one line."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math

import pandas as pd
import pyarrow as pa
import pytest

from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.scored import write_scored

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_jsonl_writes_timestamps_as_iso_text(tmp_path):
    frame = pd.DataFrame({
        "id": ["a", "b", "c"],
        "at": pd.to_datetime(["2026-01-02 03:04:05", None, "2026-11-30 00:00:00.000001"], format="ISO8601"),
        "zoned": pd.to_datetime(["2026-01-02T03:04:05Z"] * 3),
        "day": [dt.date(2026, 1, 2), None, dt.date(1999, 12, 31)],
        "took": pd.to_timedelta(["1s", "1 day", None]),
    })
    write_scored(frame, str(tmp_path / "s.jsonl"))
    got = records(tmp_path / "s.jsonl")
    assert [r["at"] for r in got] == ["2026-01-02T03:04:05", None, "2026-11-30T00:00:00.000001"]
    assert got[0]["zoned"] == "2026-01-02T03:04:05+00:00"
    assert [r["day"] for r in got] == ["2026-01-02", None, "1999-12-31"]
    assert [r["took"] for r in got] == ["P0DT0H0M1S", "P1DT0H0M0S", None]


def test_jsonl_writes_decimals_as_numbers_with_their_digits(tmp_path):
    frame = pd.DataFrame({"id": ["a", "b", "c", "d"],
                          "amount": [decimal.Decimal("1.50"), decimal.Decimal("-0.001"),
                                     None, decimal.Decimal("12345678901234567890.12")]})
    write_scored(frame, str(tmp_path / "s.jsonl"))
    text = (tmp_path / "s.jsonl").read_text()
    assert text.splitlines()[0] == '{"id": "a", "amount": 1.50}'
    assert '"amount": 12345678901234567890.12}' in text
    parsed = [json.loads(line, parse_float=decimal.Decimal)["amount"] for line in text.splitlines()]
    assert parsed == [decimal.Decimal("1.50"), decimal.Decimal("-0.001"), None,
                      decimal.Decimal("12345678901234567890.12")]


def test_jsonl_writes_a_decimal_column_from_parquet(tmp_path):
    table = pa.table({"attempt": ["x", "y"],
                      "price": pa.array([decimal.Decimal("2.50"), None], pa.decimal128(5, 2))})
    frame = table.to_pandas()
    write_scored(frame, str(tmp_path / "s.jsonl"))
    assert (tmp_path / "s.jsonl").read_text().splitlines() == [
        '{"attempt": "x", "price": 2.50}', '{"attempt": "y", "price": null}']


def test_jsonl_nested_values_from_parquet(tmp_path):
    frame = pa.table({"attempt": ["x", "y"],
                      "tags": pa.array([["a", "b"], []], pa.list_(pa.string())),
                      "pair": pa.array([{"k": 1, "v": 2.5}, None],
                                       pa.struct([("k", pa.int64()), ("v", pa.float64())]))}).to_pandas()
    write_scored(frame, str(tmp_path / "s.jsonl"))
    assert records(tmp_path / "s.jsonl") == [
        {"attempt": "x", "tags": ["a", "b"], "pair": {"k": 1, "v": 2.5}},
        {"attempt": "y", "tags": [], "pair": None}]


@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_jsonl_refuses_infinity_in_one_line(tmp_path, value):
    frame = pd.DataFrame({"id": ["a", "b"], "attempt": ["x", "y"], "score": [0.5, value]})
    with pytest.raises(UsageError) as caught:
        write_scored(frame, str(tmp_path / "s.jsonl"))
    assert str(caught.value) == (
        f"{tmp_path / 's.jsonl'}: row 1 (id b): score: {value!r} cannot be written to JSON "
        "(it has no Infinity); write CSV or Parquet instead")
    assert not (tmp_path / "s.jsonl").exists()


def test_jsonl_refuses_infinity_in_an_object_column(tmp_path):
    frame = pd.DataFrame({"attempt": ["x", "y"], "mixed": pd.array(["a", [1.0, math.inf]], dtype=object)})
    with pytest.raises(UsageError, match=r"row 1: mixed: \[1\.0, inf\] cannot be written to JSON"):
        write_scored(frame, str(tmp_path / "s.jsonl"))


def test_jsonl_refuses_bytes_in_one_line(tmp_path):
    frame = pd.DataFrame({"attempt": ["x"], "blob": pd.array([b"\x00\x01"], dtype=object)})
    with pytest.raises(UsageError) as caught:
        write_scored(frame, str(tmp_path / "s.jsonl"))
    assert str(caught.value) == (f"{tmp_path / 's.jsonl'}: row 0: blob: b'\\x00\\x01' (type bytes) "
                                 "cannot be written to JSON; write Parquet instead")


def test_score_carried_timestamp_column_to_jsonl(tmp_path, monkeypatch, capsys):
    import pyarrow.parquet as pq

    from recallscore_nb.cli.main import main

    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table({"attempt": ["copper token", "west drawer"],
                             "at": pa.array([dt.datetime(2026, 1, 2, 3, 4, 5), None],
                                            pa.timestamp("us")),
                             "cost": pa.array([decimal.Decimal("0.25"), decimal.Decimal("1")],
                                              pa.decimal128(4, 2))}), "a.parquet")
    assert main(["score", "--attempts", "a.parquet", "--out", "s.jsonl"]) == 0
    got = records(tmp_path / "s.jsonl")
    assert [r["at"] for r in got] == ["2026-01-02T03:04:05", None]
    assert [r["cost"] for r in got] == [0.25, 1.0]
    assert '"cost": 0.25' in (tmp_path / "s.jsonl").read_text()
