"""The suite catalogue as values: suites and the flags a curator attached to them.

:func:`recallscore_nb.io.catalogue.load_catalogue` reads and checks a catalogue file (see
its docstring for the format and the flags); :mod:`recallscore_nb.analysis.catalogue` builds
its frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["FLAGS", "NAMES_A_SUITE", "EVIDENCE_FIELDS", "Flag", "Suite", "Catalogue"]

FLAGS: dict[str, str] = {
    "saturated": "the top of the field can no longer be told apart",
    "superseded": "another suite now does this suite's job",
    "paired": "to be read together with another suite",
    "void": "some results are invalid under a stated condition",
}
"""The allowed flags and what each means (see the module docstring)."""
NAMES_A_SUITE = ("paired", "superseded")
"""The flags that name another suite in ``suite``; the others must not."""
EVIDENCE_FIELDS = ("caveat", "method")
"""The suite fields a flag's evidence must be a verbatim substring of."""


@dataclass(frozen=True)
class Flag:
    """One curated flag: its name, the verbatim evidence, and the other suite it names."""

    flag: str
    evidence: str
    suite: str | None = None


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
