"""Writers of attempts files by bare name (the tests run in their own temporary folder) and
the refusal they meet, shared by the attempts and scored-file tests; faulty JSON lines and
the errors they give, read whole or in chunks."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.errors import AttemptsFormatError
from recallscore_nb.io.attempts.chunks import AttemptChunks
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


JSONL = ('{"id": "a", "attempt": null}\n{"id": "b", "attempt": "x"}\n{"id": "a", "attempt": "y"}\n'
         '{"id": "c", "attempt": null}\n{"id": "b", "attempt": "z"}\n')
EXPECTED = [
    "line 1 (id a): attempt: expected a string, got null",
    "line 4 (id c): attempt: expected a string, got null",
    "line 3 (id a): id: duplicate id (first used at line 1)",
    "line 5 (id b): id: duplicate id (first used at line 2)",
]


def _lines(err: AttemptsFormatError, path) -> list[str]:
    return [str(e).removeprefix(f"{path}: ") for e in err.errors]


def _faults(tmp_path, text: str, rows: int | None = None) -> list[str]:
    """The errors of a JSONL attempts file holding ``text``, read whole or (``rows``) in
    chunks, without the file's name."""
    path = tmp_path / "a.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AttemptsFormatError) as info:
        read_attempts(str(path)) if rows is None else list(AttemptChunks(str(path), rows=rows))
    return _lines(info.value, path)


BAD_LINES = ('{"id": "a", "attempt": "x"}\nnot json\n{"id": "b", "attempt": 3}\n[1]\n'
             '{"id": "c", "attempt": "y"}\n{"id": "d", "attempt": NaN}\n')
BAD_EXPECTED = [
    "line 2: not valid JSON (Expecting value at column 1)",
    "line 3 (id b): attempt: expected a string, got 3",
    "line 4: expected a JSON object, got list",
    "line 6 (id d): attempt: expected a finite number, got NaN",
]
