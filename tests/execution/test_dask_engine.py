"""The Dask engine: a partitioned Parquet dataset scored on a 2-worker local cluster gives the
pandas engine's table row for row (dtypes included), with global default ids in file order."""

from __future__ import annotations

import json
import sys

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytest.importorskip("distributed")
pytest.importorskip("dask.dataframe")

from tests.conftest import write_benchmark  # noqa: E402
from tests.dataset_fixtures import (  # noqa: E402
    ROWS_PER_FILE, concatenated, make_items, write_dataset)

from recallscore_nb.execution import dask_engine  # noqa: E402
from recallscore_nb.io.attempts import read_attempts  # noqa: E402
from recallscore_nb.io.datasets import attempt_files  # noqa: E402
from recallscore_nb.io.benchmarks import load_benchmark  # noqa: E402
from recallscore_nb.core.errors import AttemptsFormatError, UsageError  # noqa: E402
from recallscore_nb.core.items import Items  # noqa: E402
from recallscore_nb.core.scoring import score_benchmark, score_items  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    """LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)."""
    with dask_engine.local_cluster(2) as local:
        yield local


def test_items_mode_equals_the_pandas_engine_with_global_ids(tmp_path, cluster):
    pattern, files = write_dataset(tmp_path)
    items = make_items()
    got = dask_engine.score_with_dask(items, pattern, scheduler=cluster.scheduler_address,
                                      progress=False)
    expected = score_items(items, concatenated(files, keep_ids=False))
    pd.testing.assert_frame_equal(got, expected)  # values, column order and dtypes
    assert got["id"].tolist() == [str(i) for i in range(3 * ROWS_PER_FILE)]
    first_rows = [0, ROWS_PER_FILE, 2 * ROWS_PER_FILE]
    assert got["seed"].iloc[first_rows].floordiv(10).tolist() == [1, 0, 2]  # a, b, c
    assert got["facts_present"].isna().any() and got["checklist_full_match"].any()


def test_explicit_ids_are_kept(tmp_path, cluster):
    pattern, files = write_dataset(tmp_path, ids=True, seed=1)
    items = make_items()
    got = dask_engine.score_with_dask(items, pattern, scheduler=cluster.scheduler_address,
                                      progress=False)
    pd.testing.assert_frame_equal(got, score_items(items, concatenated(files, keep_ids=True)))
    assert got["id"].iloc[[0, ROWS_PER_FILE, 2 * ROWS_PER_FILE]].tolist() == ["a-0", "b-0", "c-0"]


@pytest.mark.parametrize("squad_mode", ["v1.1", "v2.0"])
def test_benchmark_mode_equals_score_benchmark(tmp_path, cluster, squad_mode):
    pattern, files = write_dataset(tmp_path, items_column=False, seed=2)
    bench = load_benchmark(write_benchmark(tmp_path))
    got = dask_engine.score_with_dask(bench, pattern, scheduler=cluster.scheduler_address,
                                      squad_mode=squad_mode, progress=False)
    expected = score_benchmark(bench, concatenated(files, keep_ids=False), squad_mode=squad_mode)
    pd.testing.assert_frame_equal(got, expected)
    assert "fact_bird" in got.columns


def test_progress_bar_goes_to_stderr(tmp_path, cluster, capfd):
    pattern, _ = write_dataset(tmp_path, items_column=False)
    dask_engine.score_with_dask(load_benchmark(), pattern, scheduler=cluster.scheduler_address)
    out, err = capfd.readouterr()
    assert out == "" and "100% Completed" in err


def test_default_starts_and_closes_a_local_cluster(tmp_path):
    folder = tmp_path / "few"
    folder.mkdir()
    for k in range(2):
        frame = pd.DataFrame({"attempt": ["The west drawer", f"row {k}"]})
        frame.to_parquet(folder / f"{k}.parquet")
    got = dask_engine.score_with_dask(load_benchmark(), str(folder), n_workers=1, progress=False)
    assert got["id"].tolist() == ["0", "1", "2", "3"]
    assert got["attempt"].tolist() == ["The west drawer", "row 0", "The west drawer", "row 1"]


# --- errors: named by file, row and field, whether found on the client or on a worker ------
def test_a_null_attempt_found_on_a_worker_names_its_file_and_row(tmp_path, cluster):
    pattern, files = write_dataset(tmp_path, items_column=False)
    frame = pd.read_parquet(files[1])
    frame.loc[7, "attempt"] = None
    frame.to_parquet(files[1], index=False)
    with pytest.raises(AttemptsFormatError) as caught:
        dask_engine.score_with_dask(load_benchmark(), pattern, scheduler=cluster.scheduler_address,
                                    progress=False)
    error = caught.value
    assert (error.file, error.location, error.field, error.row_id) == (
        str(files[1]), "row 7", "attempt", str(ROWS_PER_FILE + 7))
    assert str(error) == (f"{files[1]}: row 7 (id {ROWS_PER_FILE + 7}): attempt: "
                          "expected a string, got null")


def test_an_id_repeated_across_files_names_both_places(tmp_path, cluster):
    pattern, files = write_dataset(tmp_path, ids=True, items_column=False)
    frame = pd.read_parquet(files[2])
    frame.loc[5, "id"] = "a-3"
    frame.to_parquet(files[2], index=False)
    with pytest.raises(AttemptsFormatError) as caught:
        dask_engine.score_with_dask(load_benchmark(), pattern, scheduler=cluster.scheduler_address,
                                    progress=False)
    assert str(caught.value) == (f"{files[2]}: row 5 (id a-3): id: duplicate id "
                                 f"(first used at {files[0]} row 3)")


def test_files_must_share_their_columns(tmp_path):
    pattern, files = write_dataset(tmp_path, items_column=False)
    pd.DataFrame({"attempt": ["x"], "system": ["base"]}).to_parquet(files[2], index=False)
    with pytest.raises(AttemptsFormatError) as caught:
        dask_engine.score_with_dask(load_benchmark(), pattern, progress=False)
    assert (caught.value.file, caught.value.field) == (str(files[2]), "seed")
    assert f"columns differ from those of {files[0]}" in str(caught.value)


@pytest.mark.parametrize(("make_input", "message"), [
    (lambda tmp_path: (load_benchmark(), str(tmp_path / "none*.parquet")), "matches no file"),
    (lambda tmp_path: (make_items(), write_dataset(tmp_path, items_column=False)[0]),
     "'attempts' must have an 'item' column"),
    (lambda tmp_path: ("bench.json", write_dataset(tmp_path)[0]),
     "'scorer_input' must be an Items or a Benchmark (got 'bench.json' that is a <class 'str'>)"),
])
def test_usage_errors_come_before_any_cluster(tmp_path, make_input, message):
    scorer_input, pattern = make_input(tmp_path)
    with pytest.raises(UsageError) as caught:
        dask_engine.score_with_dask(scorer_input, pattern, progress=False)
    assert message in str(caught.value)


def test_unknown_item_ids_found_on_a_worker(tmp_path, cluster):
    pattern, _ = write_dataset(tmp_path)
    items = make_items()
    fewer = Items(items.path, items.sha256, items.items[:19])
    with pytest.raises(UsageError, match=r"unknown item id\(s\) in the attempts, e.g. 'item19'"):
        dask_engine.score_with_dask(fewer, pattern, scheduler=cluster.scheduler_address,
                                    progress=False)


def test_without_the_extra_the_error_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UsageError, match=r"^the Dask engine needs the 'dask' extra: "
                                         r"pip install -e \.\[dask\]$"):
        dask_engine.score_with_dask(load_benchmark(), str(tmp_path / "*.parquet"))


def test_the_command_line_engines_write_the_same_file(tmp_path, monkeypatch):
    """`score ITEMS --attempts 'dir/*.parquet'` with --engine dask and with the pandas engine."""
    from recallscore_nb.cli.main import main

    pattern, _ = write_dataset(tmp_path)
    items_path = tmp_path / "items.jsonl"
    items_path.write_text("".join(
        json.dumps({"item": item.id, "referenceAnswer": list(item.references),
                    **({"factChecklist": [{"fact": f.name, "requiredTerms": list(f.terms)}
                                          for f in item.facts]} if item.facts else {})}) + "\n"
        for item in make_items().items), encoding="utf-8")
    dask_out, pandas_out = tmp_path / "dask.csv", tmp_path / "pandas.csv"
    assert main(["score", str(items_path), "--attempts", pattern, "--out", str(pandas_out)]) == 0
    assert main(["score", str(items_path), "--attempts", pattern, "--out", str(dask_out),
                 "--engine", "dask", "--quiet"]) == 0
    assert dask_out.read_bytes() == pandas_out.read_bytes()
    assert pandas_out.read_text().splitlines()[1].startswith("0,")


# --- faults (issue 9): scheduler addresses, repeated columns, files that are not files ------
@pytest.mark.parametrize(("address", "reason"), [
    ("garbage", "missing port number in address 'garbage'"),
    ("foo://host:1", "unknown address scheme 'foo'"),
])
def test_a_scheduler_address_that_is_not_one_is_a_usage_error(tmp_path, address, reason):
    pattern, _ = write_dataset(tmp_path, items_column=False)
    with pytest.raises(UsageError) as caught:
        dask_engine.score_with_dask(load_benchmark(), pattern, scheduler=address, progress=False)
    assert str(caught.value).startswith(f"--scheduler {address!r}: not a scheduler address (")
    assert reason in str(caught.value)


def test_a_refused_connection_says_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 1)
    pattern, _ = write_dataset(tmp_path, items_column=False)
    with pytest.raises(UsageError) as caught:
        dask_engine.score_with_dask(load_benchmark(), pattern, scheduler="tcp://127.0.0.1:1",
                                    progress=False)
    assert str(caught.value) == ("--scheduler 'tcp://127.0.0.1:1': cannot connect: connection "
                                 "refused")


def test_a_silent_server_times_out_and_says_so(tmp_path, monkeypatch):
    """Something accepts the connection and never answers."""
    import socket
    import threading

    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 1)
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    pattern, _ = write_dataset(tmp_path, items_column=False)
    try:
        with pytest.raises(UsageError) as caught:
            dask_engine.score_with_dask(load_benchmark(), pattern,
                                        scheduler=f"tcp://127.0.0.1:{port}", progress=False)
    finally:
        server.close()
        for conn in accepted:
            conn.close()
    assert str(caught.value) == (f"--scheduler 'tcp://127.0.0.1:{port}': cannot connect: "
                                 "timed out after 1 s")


def test_a_bad_scheduler_on_the_command_line_is_one_line(tmp_path, capsys):
    from recallscore_nb.cli.main import main

    pattern, _ = write_dataset(tmp_path, items_column=False)
    code = main(["score", "--engine", "dask", "--attempts", pattern, "--scheduler", "garbage"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        "recallscore: error: --scheduler 'garbage': not a scheduler address (missing port "
        "number in address 'garbage'); give one such as tcp://host:8786"]


def test_a_server_that_is_not_dask_is_one_line_and_a_prompt_exit(tmp_path):
    """Something else answers at the address (here: bytes that are not Dask's messages)."""
    import socket
    import subprocess
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"\xff" * 64)

    threading.Thread(target=answer, daemon=True).start()
    pattern, _ = write_dataset(tmp_path, items_column=False)
    try:
        done = subprocess.run([sys.executable, "-m", "recallscore_nb", "score", "--engine", "dask",
                               "--attempts", pattern, "--scheduler", f"tcp://127.0.0.1:{port}",
                               "--quiet"], capture_output=True, text=True, timeout=60)
    finally:
        server.close()
    # a hang is bounded by the timeout above (a half-made client once waited 20 s at exit)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"recallscore: error: --scheduler 'tcp://127.0.0.1:{port}': not a Dask scheduler "
        f"(something else answers there)"]


def test_one_file_of_many_row_groups_is_read_as_row_group_partitions(tmp_path, cluster,
                                                                     monkeypatch):
    """A single large file is not one partition: its row groups are, as the pandas engine's
    chunks; the table equals the pandas engine's, and a fault names its row in the file."""
    pattern, files = write_dataset(tmp_path)
    frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    single = tmp_path / "one"
    single.mkdir()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), single / "all.parquet",
                   row_group_size=700)
    found = attempt_files(str(single))
    parts = found.partitions(4, max_rows=1_000_000)
    assert len(parts) == 4 and sum(piece[4] for part in parts for piece in part) == len(frame)
    assert all(len(part) == 1 and part[0][0] == str(single / "all.parquet") for part in parts)
    got = dask_engine.score_with_dask(make_items(), str(single),
                                      scheduler=cluster.scheduler_address, progress=False)
    pd.testing.assert_frame_equal(
        got, score_items(make_items(), read_attempts(str(single / "all.parquet"))))
    frame.loc[5000, "attempt"] = None
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), single / "all.parquet",
                   row_group_size=700)
    with pytest.raises(AttemptsFormatError) as caught:
        dask_engine.score_with_dask(make_items(), str(single),
                                    scheduler=cluster.scheduler_address, progress=False)
    assert str(caught.value) == (f"{single / 'all.parquet'}: row 5000 (id 5000): attempt: "
                                 "expected a string, got null")
