"""Writers of attempts files by bare name (the tests run in their own temporary folder) and
the refusal they meet, shared by the attempts and scored-file tests."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.errors import AttemptsFormatError
from recallscore_nb.io.attempts import read_attempts


def write_bytes(name: str, content: bytes | str) -> str:
    Path(name).write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return name


def write_jsonl(name: str, records: list) -> str:
    return write_bytes(name, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def write_parquet(name: str, columns: dict) -> str:
    pq.write_table(pa.table(columns), name)
    return name


def read_error(name: str) -> AttemptsFormatError:
    with pytest.raises(AttemptsFormatError) as caught:
        read_attempts(name)
    return caught.value
