"""``recallscore score`` a chunk at a time: the bytes of the whole-table path, its faults in
the same words and order, atomic output, progress in rows.

Chunks and row groups are made small here (a few rows) so that every boundary case is met
on a file of a few hundred rows; the whole-table path is the same handler with streaming off.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.cli import handlers
from recallscore_nb.execution import processes, scorers, streaming
from recallscore_nb.core.errors import AttemptsFormatError, InputFileError, UsageError
from recallscore_nb.io.attempts import chunks as attempts_io
from recallscore_nb.io import scored as scored_io
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH

CHUNK, GROUP = 64, 160
WORDS = ["west", "drawer", "The", "copper", "token", "musée", "", "  ", "a", "é", "\t", "Ünï",
         "opens", "before", "museum", "\x1f", "ﬁ", "铜"]


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch, tmp_path):
    monkeypatch.setattr(attempts_io, "CHUNK_ROWS", CHUNK)
    monkeypatch.setattr(scorers.ItemsScorer, "chunk_rows", CHUNK)
    monkeypatch.setattr(scored_io, "ROW_GROUP_ROWS", GROUP)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def streamed(monkeypatch):
    """The results of ``streaming._stream`` (True: streamed; False: read whole)."""
    seen: list[bool] = []
    real = streaming._stream

    def spy(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(streaming, "_stream", spy)
    return seen


def whole(monkeypatch, call):
    """``call()`` with streaming off: today's whole-table path."""
    with monkeypatch.context() as m:
        m.setattr(streaming, "streamable", lambda path: False)
        return call()


def attempts_frame(n: int, seed: int = 0, *, items=None) -> pd.DataFrame:
    rng = random.Random(seed)
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 7))) for _ in range(n)]
    texts[50:90] = [texts[50]] * 40  # a run of repeats across a chunk boundary (64)
    texts[120:200] = ["the west drawer"] * 80  # and one across a row group boundary (160)
    frame = pd.DataFrame({
        "id": [f"r{i}" for i in range(n)], "attempt": texts,
        "system": [rng.choice(["x", "y", "ü,\"q\""]) for _ in range(n)],
        "n": np.arange(n) * 7 - 3, "f": np.linspace(0, 1, n) ** 3,
        "flag": [i % 3 == 0 for i in range(n)]})
    if items is not None:
        frame.insert(1, "item", [rng.choice(items) for _ in range(n)])
    return frame


def write_attempts(frame: pd.DataFrame, name: str) -> str:
    if name.endswith(".csv"):
        frame.to_csv(name, index=False)
    elif name.endswith(".parquet"):
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), name,
                       row_group_size=100)
    else:
        with open(name, "w", encoding="utf-8") as fh:
            for record in frame.to_dict("records"):
                fh.write(json.dumps({k: v.item() if hasattr(v, "item") else v
                                     for k, v in record.items()}, ensure_ascii=False) + "\n")
    return name


ITEMS = [
    {"item": "kite", "referenceAnswer": "A red kite nests by the river.",
     "factChecklist": [{"fact": "bird", "requiredTerms": ["red kite"]},
                       {"fact": "place", "requiredTerms": ["river"]}]},
    {"item": "capital", "referenceAnswer": ["Paris", "Lutetia"]},
    {"item": "drawer", "referenceAnswer": "The token is in the west drawer.",
     "factChecklist": [{"fact": "where", "requiredTerms": ["west drawer"]}]},
]


def write_items(path="items.jsonl") -> str:
    Path(path).write_text("".join(json.dumps(i) + "\n" for i in ITEMS), encoding="utf-8")
    return path


@pytest.mark.parametrize("source", ["a.csv", "a.jsonl", "a.parquet"])
@pytest.mark.parametrize("out", ["o.csv", "o.jsonl", "o.parquet"])
@pytest.mark.parametrize("schema", [None, DEFAULT_SCHEMA_PATH])
def test_streamed_output_is_byte_for_byte_the_whole_tables(monkeypatch, streamed, source, out,
                                                           schema):
    write_attempts(attempts_frame(500), source)
    handlers.score_command(None, source, "s_" + out, schema_path=schema)
    whole(monkeypatch, lambda: handlers.score_command(None, source, "w_" + out,
                                                      schema_path=schema))
    assert streamed == [True]
    assert Path("s_" + out).read_bytes() == Path("w_" + out).read_bytes()
    if out.endswith(".parquet"):
        assert pq.ParquetFile("s_" + out).metadata.num_row_groups == 4  # 500 rows, 160 a group


@pytest.mark.parametrize("source", ["a.csv", "a.jsonl", "a.parquet"])
@pytest.mark.parametrize("out", ["o.csv", "o.jsonl", "o.parquet"])
def test_streamed_items_output_is_byte_for_byte_the_whole_tables(monkeypatch, streamed, source,
                                                                 out):
    write_items()
    write_attempts(attempts_frame(300, items=["kite", "capital", "drawer"]), source)
    handlers.score_command("items.jsonl", source, "s_" + out)
    whole(monkeypatch, lambda: handlers.score_command("items.jsonl", source, "w_" + out))
    assert streamed == [True]
    assert Path("s_" + out).read_bytes() == Path("w_" + out).read_bytes()


@pytest.mark.parametrize("out", ["o.csv", "o.jsonl", "o.parquet"])
def test_streamed_items_with_a_schema_are_byte_for_byte_the_whole_tables(monkeypatch, streamed,
                                                                         out):
    """The schema's statuses are computed a chunk at a time, as the rules are."""
    write_items()
    Path("schema.json").write_text(json.dumps({
        "schemaVersion": 1, "disagreementNote": "A test's reading.",
        "items": {"kite": {"facts": {"bird": {"weight": 2, "contradictions": [["crow"]]}}},
                  "drawer": {"facts": {"where": {"equivalents": [["west cabinet"]]}}}}}),
        encoding="utf-8")
    frame = attempts_frame(300, items=["kite", "capital", "drawer"])
    frame.loc[::7, "attempt"] = "a red kite, not a crow, by the river; the west cabinet"
    write_attempts(frame, "a.csv")
    handlers.score_command("items.jsonl", "a.csv", "s_" + out, schema_path="schema.json")
    whole(monkeypatch, lambda: handlers.score_command("items.jsonl", "a.csv", "w_" + out,
                                                      schema_path="schema.json"))
    assert streamed == [True]
    assert Path("s_" + out).read_bytes() == Path("w_" + out).read_bytes()


@pytest.mark.parametrize("rows", [0, 1, CHUNK, CHUNK + 1, GROUP, 2 * GROUP])
def test_sizes_on_the_boundaries_stream_to_the_same_bytes(monkeypatch, streamed, rows):
    frame = attempts_frame(400).iloc[:rows]
    for source in ("a.csv", "a.parquet"):
        write_attempts(frame, source)
        for out in ("o.csv", "o.parquet"):
            handlers.score_command(None, source, "s_" + out)
            whole(monkeypatch, lambda: handlers.score_command(None, source, "w_" + out))
            assert Path("s_" + out).read_bytes() == Path("w_" + out).read_bytes(), (source, out)
    assert set(streamed) == {True}


def test_default_ids_count_from_the_files_start(streamed):
    Path("a.csv").write_text("attempt\n" + "".join(f"x{i}\n" for i in range(150)))
    handlers.score_command(None, "a.csv", "o.csv")
    ids = pd.read_csv("o.csv", dtype=str)["id"].tolist()
    assert ids == [str(i) for i in range(150)] and streamed == [True]


def test_standard_output_gets_the_whole_tables_bytes(monkeypatch, capsys, streamed):
    write_attempts(attempts_frame(200), "a.csv")
    handlers.score_command(None, "a.csv", None)
    streamed_text = capsys.readouterr().out
    whole(monkeypatch, lambda: handlers.score_command(None, "a.csv", None))
    assert streamed_text == capsys.readouterr().out and streamed == [True]


def test_jsonl_keys_that_change_between_chunks_are_read_whole(monkeypatch, streamed):
    frame = attempts_frame(200)
    write_attempts(frame, "a.jsonl")
    lines = Path("a.jsonl").read_text(encoding="utf-8").splitlines()
    lines[150] = json.dumps({"attempt": "late", "id": "late", "extra": 1.5})  # a key of its own
    Path("a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    handlers.score_command(None, "a.jsonl", "s.parquet")
    whole(monkeypatch, lambda: handlers.score_command(None, "a.jsonl", "w.parquet"))
    assert streamed == [False]
    assert Path("s.parquet").read_bytes() == Path("w.parquet").read_bytes()


@pytest.mark.parametrize("processes", [1, 2])
def test_an_items_file_whose_chunks_differ_is_read_whole_with_every_item(monkeypatch, streamed,
                                                                          processes):
    """What streaming let go of the items (the items themselves, the prepared tables the
    workers hold) is read again when the file falls back to being scored whole."""
    monkeypatch.setattr(streaming, "PROCESSES", processes)
    write_items()
    write_attempts(attempts_frame(200, items=["kite", "capital", "drawer"]), "a.jsonl")
    lines = Path("a.jsonl").read_text(encoding="utf-8").splitlines()
    lines[150] = json.dumps({"id": "late", "item": "kite", "attempt": "a red kite", "extra": 1})
    Path("a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    handlers.score_command("items.jsonl", "a.jsonl", "s.parquet")
    whole(monkeypatch, lambda: handlers.score_command("items.jsonl", "a.jsonl", "w.parquet"))
    assert streamed == [False]
    assert Path("s.parquet").read_bytes() == Path("w.parquet").read_bytes()


def test_integer_column_with_nulls_in_some_chunks_is_read_whole(monkeypatch, streamed):
    frame = attempts_frame(200)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    n = pa.array([None if i == 170 else i for i in range(200)], type=pa.int64())
    pq.write_table(table.set_column(3, "n", n), "a.parquet")
    handlers.score_command(None, "a.parquet", "s.csv")
    whole(monkeypatch, lambda: handlers.score_command(None, "a.parquet", "w.csv"))
    assert streamed == [False]
    assert Path("s.csv").read_bytes() == Path("w.csv").read_bytes()
    assert "\n5,west" not in Path("s.csv").read_text()  # n is float: 4.0, not 4


# --- faults: the same words, the same order, nothing written ---------------------------------
def fault_of(call) -> str:
    with pytest.raises((InputFileError, UsageError)) as caught:
        call()
    return str(caught.value)


def same_fault(monkeypatch, scorer, source, out="o.csv") -> str:
    """The fault ``score_command(scorer, source, out)`` raises streaming, checked equal to
    the whole-table path's."""
    def call():
        return handlers.score_command(scorer, source, out)

    streaming = fault_of(call)
    assert streaming == fault_of(lambda: whole(monkeypatch, call))
    return streaming


@pytest.mark.parametrize("source", ["a.csv", "a.jsonl", "a.parquet"])
def test_an_id_repeated_in_another_chunk_is_named_as_whole(monkeypatch, source):
    frame = attempts_frame(300)
    frame.loc[250, "id"] = "r10"  # chunk 4 repeats chunk 1's id
    frame.loc[280, "id"] = "r270"  # a later repeat, within one chunk: not the one named
    write_attempts(frame, source)
    message = same_fault(monkeypatch, None, source)
    where = "line 251" if source.endswith(".jsonl") else "row 250"
    first = "line 11" if source.endswith(".jsonl") else "row 10"
    assert message == (f"{source}: {where} (id r10): id: duplicate id (first used at {first})")
    assert not Path("o.csv").exists()


@pytest.mark.parametrize("source", ["a.csv", "a.parquet"])
def test_an_id_repeated_within_one_chunk_is_named_as_whole(monkeypatch, source):
    frame = attempts_frame(300)
    frame.loc[70, "id"] = "r65"  # both in the second chunk (rows 64-127)
    write_attempts(frame, source)
    message = same_fault(monkeypatch, None, source)
    assert message == f"{source}: row 70 (id r65): id: duplicate id (first used at row 65)"


def test_a_null_attempt_in_a_later_chunk_outranks_an_earlier_null_id(monkeypatch):
    frame = attempts_frame(300)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    ids = pa.array([None if i == 5 else v for i, v in enumerate(frame["id"])])
    texts = pa.array([None if i == 260 else v for i, v in enumerate(frame["attempt"])])
    pq.write_table(table.set_column(0, "id", ids).set_column(1, "attempt", texts), "a.parquet")
    message = same_fault(monkeypatch, None, "a.parquet")
    assert message == "a.parquet: row 260 (id r260): attempt: expected a string, got null"


def write_repeating_r1(at: int, columns: dict | None = None) -> None:
    """``a.csv`` of 300 attempts whose row ``at`` repeats the id of row 1."""
    frame = attempts_frame(300).rename(columns=columns or {})
    frame.loc[at, "id"] = "r1"
    write_attempts(frame, "a.csv")


def test_a_bad_csv_line_late_outranks_an_early_repeated_id(monkeypatch):
    write_repeating_r1(3)
    with open("a.csv", "a", encoding="utf-8") as fh:
        fh.write("x,y\n")
    message = same_fault(monkeypatch, None, "a.csv")
    assert message == "a.csv: line 302: expected 6 fields as in the header, got 2"


def test_unknown_items_in_several_chunks_are_counted_as_whole(monkeypatch):
    write_items()
    frame = attempts_frame(300, items=["kite", "capital", "drawer"])
    frame.loc[[10, 100, 290, 291], "item"] = ["nope", "gone", "nope", "third"]
    write_attempts(frame, "a.csv")
    message = same_fault(monkeypatch, "items.jsonl", "a.csv")
    assert message == ("a.csv: item: 3 unknown item id(s) in the attempts, e.g. 'nope', 'gone', "
                       "'third'")


def test_items_file_faults_of_columns_come_after_the_files_own(monkeypatch):
    write_items()
    frame = attempts_frame(300, items=["kite"]).rename(columns={"system": "facts_missing"})
    write_attempts(frame, "a.csv")
    message = same_fault(monkeypatch, "items.jsonl", "a.csv")
    assert message == ("a.csv: facts_missing: column 'facts_missing' collides with an output "
                       "column; rename it")
    write_attempts(attempts_frame(300), "b.csv")
    message = same_fault(monkeypatch, "items.jsonl", "b.csv")
    assert message == "b.csv: item: missing column 'item' (scoring against an items file)"


def test_a_colliding_column_is_reported_after_the_files_faults(monkeypatch):
    write_repeating_r1(200, {"system": "token_f1"})
    message = same_fault(monkeypatch, None, "a.csv")
    assert message == "a.csv: row 200 (id r1): id: duplicate id (first used at row 1)"


def test_a_bad_out_extension_comes_after_the_inputs_faults(monkeypatch):
    write_repeating_r1(200)
    message = same_fault(monkeypatch, None, "a.csv", "o.txt")
    assert message.endswith("duplicate id (first used at row 1)")
    write_attempts(attempts_frame(300), "b.csv")
    message = same_fault(monkeypatch, None, "b.csv", "o.txt")
    assert message == "o.txt: --out must end in .csv, .jsonl, .parquet (got '.txt')"


def leftovers() -> list[str]:
    return sorted(p.name for p in Path(".").iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("out", ["o.csv", "o.jsonl", "o.parquet"])
def test_a_fault_in_the_last_chunk_leaves_the_old_output(out):
    Path(out).write_bytes(b"old output")
    frame = attempts_frame(300)
    frame.loc[299, "id"] = "r0"
    write_attempts(frame, "a.csv")
    with pytest.raises(AttemptsFormatError, match="row 299"):
        handlers.score_command(None, "a.csv", out)
    assert Path(out).read_bytes() == b"old output" and leftovers() == []


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_an_interrupt_or_a_full_disk_mid_file_leaves_the_old_output(monkeypatch, stop):
    monkeypatch.setattr(streaming, "PROCESSES", 1)  # the calls counted in this process
    Path("o.parquet").write_bytes(b"old output")
    write_attempts(attempts_frame(400), "a.csv")
    real, calls = scorers.score_attempts_frame, []

    def score(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise stop
        return real(*args, **kwargs)

    monkeypatch.setattr(scorers, "score_attempts_frame", score)
    with pytest.raises((KeyboardInterrupt, UsageError)):
        handlers.score_command(None, "a.csv", "o.parquet")
    assert Path("o.parquet").read_bytes() == b"old output" and leftovers() == []
    assert len(calls) == 4


def test_an_interrupt_in_the_second_process_leaves_the_old_output(monkeypatch):
    Path("o.csv").write_bytes(b"old output")
    write_attempts(attempts_frame(400), "a.csv")
    real = scorers.score_attempts_frame

    def score(bench, frame, **kwargs):
        if frame["id"].iloc[0] == "r192":  # chunk 4, the second of a pair: in the child
            raise KeyboardInterrupt
        return real(bench, frame, **kwargs)

    monkeypatch.setattr(scorers, "score_attempts_frame", score)
    with pytest.raises(KeyboardInterrupt):
        handlers.score_command(None, "a.csv", "o.csv")
    assert Path("o.csv").read_bytes() == b"old output" and leftovers() == []


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("source", ["a.csv", "a.jsonl", "a.parquet"])
def test_progress_counts_rows_done_of_rows_total(monkeypatch, source, processes):
    monkeypatch.setattr(streaming, "PROCESSES", processes)
    write_attempts(attempts_frame(300), source)
    seen = []
    handlers.score_command(None, source, "o.csv", progress=lambda done, total: seen.append(
        (done, total)))
    assert [done for done, _ in seen] == [64, 128, 192, 256, 300]
    assert seen[-1] == (300, 300)
    if source.endswith(".parquet"):
        assert {total for _, total in seen} == {300}


def test_one_process_writes_each_chunk_once_scored(monkeypatch):
    """With one process, each chunk is written as soon as it is scored."""
    monkeypatch.setattr(streaming, "PROCESSES", 1)
    write_attempts(attempts_frame(400), "a.csv")
    scored, written = [], []
    real_score = scorers.score_attempts_frame

    def score(bench, frame, **kwargs):
        scored.append(frame["id"].iloc[0])
        return real_score(bench, frame, **kwargs)

    monkeypatch.setattr(scorers, "score_attempts_frame", score)
    handlers.score_command(None, "a.csv", "o.csv",
                           progress=lambda done, total: written.append((done, len(scored))))
    assert written == [(64, 1), (128, 2), (192, 3), (256, 4), (320, 5), (384, 6), (400, 7)]


def test_each_child_has_at_most_its_fill_of_chunks_not_yet_written(monkeypatch):
    """With two scoring children, this process reads a chunk only while some child has
    fewer than CHILD_AHEAD in hand: at most 2 x CHILD_AHEAD chunks read and not yet written."""
    monkeypatch.setattr(streaming, "PROCESSES", 2)
    write_attempts(attempts_frame(1000), "a.csv")
    sent, written = [], []
    real_submit = processes.ForkedWorker.submit

    def submit(self, *task):
        sent.append(len(task[0]))
        return real_submit(self, *task)

    monkeypatch.setattr(processes.ForkedWorker, "submit", submit)
    handlers.score_command(None, "a.csv", "o.csv",
                           progress=lambda done, total: written.append((done, sum(sent))))
    assert len(sent) == 16 and sum(sent) == 1000  # every chunk went to a child
    assert all(read - done <= 2 * streaming.CHILD_AHEAD * 64 for done, read in written)
    assert written[-1] == (1000, 1000)


def test_chunks_larger_than_a_pipe_buffer_go_back_and_forth_without_a_deadlock(monkeypatch):
    """Chunks of 3,000 long attempts (far above a pipe's 64 KiB) sent to the child while it
    sends results back; an alarm turns a hang into a failure."""
    import signal

    monkeypatch.setattr(attempts_io, "CHUNK_ROWS", 3000)
    monkeypatch.setattr(streaming, "CHILD_AHEAD", 2)
    frame = attempts_frame(15_000)
    frame["attempt"] = frame["attempt"] + " " + "the west drawer opens before the museum " * 4
    write_attempts(frame, "a.parquet")
    previous = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(
        TimeoutError("scoring hung")))
    signal.alarm(60)
    try:
        handlers.score_command(None, "a.parquet", "s.parquet")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    whole(monkeypatch, lambda: handlers.score_command(None, "a.parquet", "w.parquet"))
    assert Path("s.parquet").read_bytes() == Path("w.parquet").read_bytes()


@pytest.mark.parametrize("default", [1, 3])
def test_the_command_forks_the_default_number_of_workers(monkeypatch, default):
    from recallscore_nb.execution import processes

    forked = []
    fork = streaming.fork_workers
    monkeypatch.setattr(streaming, "fork_workers",
                        lambda function, count: forked.append(count) or fork(function, count))
    monkeypatch.setattr(processes, "default_processes", lambda: default)
    write_attempts(attempts_frame(200), "a.jsonl")
    handlers.score_command(None, "a.jsonl", "s.parquet")
    assert forked == [default if default > 1 else 0]
