"""The suite catalogue as values: suites and the flags a curator attached to them.

:func:`recallscore_nb.io.catalogue.load_catalogue` reads and checks a catalogue file (see
its docstring for the format and the flags); :mod:`recallscore_nb.analysis.catalogue` builds
its frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["FLAGS", "NAMES_A_SUITE", "DATED_FLAGS", "EVIDENCE_FIELDS", "Flag", "Suite",
           "Catalogue"]

FLAGS: dict[str, str] = {
    "saturated": "the top of the field can no longer be told apart",
    "superseded": "another suite now does this suite's job",
    "paired": "to be read together with another suite",
    "void": "some results are invalid under a stated condition",
    "floor": "every model scores at the bottom of (part of) the suite: it separates none",
    "ceiling": "a model can clear the whole suite, which then says the suite ran out of room",
    "small-n": "too few cases for a single run to be more than indicative",
    "confound": "the score moves with something other than what the suite asks",
    "unchecked-gold": "the gold answers have not been checked by a person",
    "grader-bug": "the grader was wrong until a fix date (``fixed``): earlier results are suspect",
}
"""The allowed flags and what each means (see the module docstring)."""
NAMES_A_SUITE = ("paired", "superseded")
"""The flags that name another suite in ``suite``; the others must not."""
DATED_FLAGS = ("grader-bug",)
"""The flags that carry the date of their fix in ``fixed`` (ISO ``YYYY-MM-DD``); the others
must not."""
EVIDENCE_FIELDS = ("caveat", "method")
"""The suite fields a flag's evidence must be a verbatim substring of."""


@dataclass(frozen=True)
class Flag:
    """One curated flag: its name, the verbatim evidence, the other suite it names, and the
    date a grader bug was fixed."""

    flag: str
    evidence: str
    suite: str | None = None
    fixed: str | None = None


@dataclass(frozen=True)
class Suite:
    """One suite of the catalogue; ``extra`` keeps the fields this module does not use."""

    id: str
    title: str
    version: str
    question: str
    method: str
    grading: str
    caveat: str
    cases: int
    runs: int
    flags: tuple[Flag, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Catalogue:
    """A validated catalogue: ``path`` as the caller named it, ``sha256`` of its bytes."""

    path: str
    sha256: str
    generated: str
    suites: tuple[Suite, ...]
