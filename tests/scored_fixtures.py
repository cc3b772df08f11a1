"""Shared by the tests that read scored files (``summarize``): a small scored table whose
system names differ only as text ("01" and "1"), a writer and the refusal reader."""

from __future__ import annotations

import pytest

from recallscore_nb.analysis.summary import read_scored
from recallscore_nb.core.errors import InputFileError

SCORED = [
    "system,id,literal_match,token_f1",
    "01,r1,true,1.0",
    "1,r2,false,0.5",
    "01,r3,true,0.25",
]


def write(name: str, content: bytes | str) -> str:
    with open(name, "wb") as fh:
        fh.write(content.encode("utf-8") if isinstance(content, str) else content)
    return name


def read_error(name: str, **kwargs) -> InputFileError:
    with pytest.raises(InputFileError) as caught:
        read_scored(name, **kwargs)
    return caught.value


RULES = ["literal_match", "token_f1"]
