"""Partitioned attempts datasets: the files found, checked from their footers, and read as one
attempts table with global default ids."""

from __future__ import annotations

import os

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.errors import AttemptsFormatError
from recallscore_nb.io.datasets import attempt_files, read_attempt_files
from tests.dataset_fixtures import concatenated, write_dataset


def test_read_attempt_files_is_what_the_workers_score(tmp_path):
    pattern, files = write_dataset(tmp_path)
    frame = read_attempt_files(attempt_files(pattern))
    expected = concatenated(files, keep_ids=False)
    expected.insert(0, "id", [str(i) for i in range(len(expected))])
    pd.testing.assert_frame_equal(frame, expected, check_dtype=False)
    assert frame.dtypes.equals(concatenated(files, keep_ids=True).dtypes)


def test_a_file_repeating_a_column_name_is_one_line(tmp_path):
    pattern, files = write_dataset(tmp_path, items_column=False)
    table = pa.Table.from_arrays([pa.array(["x"]), pa.array(["a"]), pa.array(["b"])],
                                 names=["attempt", "system", "system"])
    pq.write_table(table, files[1])
    with pytest.raises(AttemptsFormatError) as caught:
        attempt_files(pattern)
    assert str(caught.value) == f"{files[1]}: system: column named twice in the file"


def test_a_device_among_the_files_is_refused(tmp_path):
    pattern, files = write_dataset(tmp_path, items_column=False)
    os.symlink("/dev/zero", files[0].parent / "part-z.parquet")
    with pytest.raises(AttemptsFormatError) as caught:
        attempt_files(pattern)
    assert str(caught.value) == (f"{files[0].parent / 'part-z.parquet'}: not a regular file "
                                 "(a character device); give a file")
