"""Attempts files whose rows name the system that made them, read and checked.

Two analyses read them: the reanalysis (notebook 05: ``id, system, attempt``, a system name of
every row's own, since names starting with ``control:`` are kept for the negative controls)
and the meta-evaluation against human judges (notebook 08: ``item, system, attempt``, read
with the items file and the judgments file that go with them). Each check names the file, the
row and the field, as every reader of :mod:`recallscore_nb.io` does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.errors import AttemptsFormatError
from ...core.items import Items
from . import read_attempts
from ..items import load_items
from ..judgments import Judgments, load_judgments

__all__ = ["CONTROL_PREFIX", "read_system_attempts", "JudgedFiles", "read_judged_files"]

CONTROL_PREFIX = "control:"
"""The prefix of the negative controls' pseudo-system names: no system of a file may use it."""


def read_system_attempts(path: str | os.PathLike[str]) -> pd.DataFrame:
    """An attempts file as ``id, system, attempt``, every row with a system name of its own.

    Refused: no ``system`` column, no attempt, a null system, or a system name starting with
    :data:`CONTROL_PREFIX` (the first such row named, with its id).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.csv")
    >>> _ = open(p, "w").write("id,system,attempt\\na1,s,x\\na2,control:me,y\\n")
    >>> read_system_attempts(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.AttemptsFormatError: ...a.csv: row 1 (id a2): system: ...got 'control:me'
    """
    path = str(path)
    frame = read_attempts(path)
    if "system" not in frame.columns:
        raise AttemptsFormatError(path, "", "system", message="missing column 'system' "
                                  "(which system made each attempt)")
    if frame.empty:
        raise AttemptsFormatError(path, message="no attempts to reanalyse")
    missing = frame["system"].isna().to_numpy()
    reserved = ~missing & frame["system"].astype(str).str.startswith(CONTROL_PREFIX).to_numpy()
    for bad, expected in ((missing, "a system name"),
                          (reserved, f"a system name not starting with '{CONTROL_PREFIX}' "
                                     "(reserved for the negative controls)")):
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            got = "null" if missing[row] else repr(frame["system"].iloc[row])
            raise AttemptsFormatError(path, f"row {row}", "system", expected=expected,
                                      got=got, row_id=frame["id"].iloc[row])
    return frame[["id", "system", "attempt"]].astype({"system": frame["attempt"].dtype})


@dataclass(frozen=True, repr=False)
class JudgedFiles:
    """An items file, the attempts of several systems at its items, and the judges' verdicts
    on them, matched (:func:`read_judged_files`); shown as what was read."""

    items: Items
    attempts: pd.DataFrame
    judgments: Judgments

    def __repr__(self) -> str:
        systems = ", ".join(map(str, pd.unique(self.attempts["system"])))
        verdicts = sum(self.judgments.verdict_counts().values())
        return "\n".join([f"{len(self.items)} items",
                          f"{len(self.attempts)} attempts by {systems}",
                          f"{verdicts} verdicts by {', '.join(self.judgments.judges)}"])


def read_judged_files(items_path: str | os.PathLike[str], attempts_path: str | os.PathLike[str],
                      judgments_path: str | os.PathLike[str]) -> JudgedFiles:
    """Read the three files of a meta-evaluation and match each verdict to its attempts.

    The attempts file must name each attempt's ``item`` and ``system`` (a judged attempt is
    found by them); the judgments file is read against the items and attempts
    (:func:`~recallscore_nb.io.judgments.load_judgments`).
    """
    items = load_items(str(items_path))
    attempts_path = str(attempts_path)
    attempts = read_attempts(attempts_path)
    for column in ("item", "system"):
        if column not in attempts.columns:
            raise AttemptsFormatError(attempts_path, "", column, message="missing column "
                                      "(judged attempts name their item and system)")
    judgments = load_judgments(str(judgments_path), items, attempts)
    return JudgedFiles(items, attempts, judgments)
