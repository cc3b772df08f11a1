"""Sets of human-judged answers, by name or by folder: what notebook 08 evaluates the rules on.

A set is a folder of three files, as ``recallscore convert`` writes them: ``items.jsonl``
(or ``items.jsonl.gz``), ``attempts`` (``.parquet``, ``.csv`` or ``.jsonl``) and
``judgments`` (the same), and optionally ``set.json``, what is known of the set: its
``title``, its ``role`` (``development``: the rules were designed on it; ``held-out``:
reported, never tuned on; ``example``), the judges who are its ``annotators`` (people
compared with each other) and its ``source``.

The package ships five (:data:`SHIPPED_SETS`): the converted EVOUNA NQ and TQ sets
(Apache-2.0), OpenQA-eval's NQ301 (MIT) and EfficientQA's rated answers (CC BY-SA 3.0), each
with its licence (``NOTICE.md``), and the authored eight-item example.

>>> [s.name for s in read_judged_sets("example")]
['example']
>>> read_judged_sets("example")[0].annotators
('annotator1', 'annotator2', 'annotator3')
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputFileError, UsageError
from ..core.macros import macro_tag
from .data import DATA_DIR, JUDGED_EXAMPLE
from .files import read_input
from .jsondocs import parse_object
from .attempts.systems import JudgedFiles, read_judged_files

__all__ = ["HUMAN_SETS_DIR", "SHIPPED_SETS", "JudgedSet", "judged_set", "read_judged_sets"]

HUMAN_SETS_DIR = DATA_DIR / "human_judgments"
SHIPPED_SETS = {"evouna-nq": HUMAN_SETS_DIR / "evouna-nq",
                "evouna-tq": HUMAN_SETS_DIR / "evouna-tq",
                "openqa-nq301": HUMAN_SETS_DIR / "openqa-nq301",
                "efficientqa": HUMAN_SETS_DIR / "efficientqa",
                "example": JUDGED_EXAMPLE}
"""The sets shipped in the package, by name."""
ROLES = ("development", "held-out", "example", "")
_FORMATS = (".parquet", ".csv", ".jsonl")


@dataclass(frozen=True, repr=False)
class JudgedSet:
    """One set: its name, what its ``set.json`` says, and its three files read and matched.
    ``annotators`` is None when ``set.json`` names none (an empty list: the set has no
    annotators, its judges being, say, readings of one verdict)."""

    name: str
    title: str
    role: str
    annotators: tuple[str, ...] | None
    source: str
    files: JudgedFiles

    @property
    def tag(self) -> str:
        """The set's name as :func:`macro_tag` writes it: ``openqa-nq301`` gives
        ``OpenqaNq``."""
        return macro_tag(self.name)

    def __repr__(self) -> str:
        role = f" ({self.role})" if self.role else ""
        return f"{self.name}: {self.title}{role}\n{self.files!r}"


def _one(folder: Path, stem: str, formats) -> Path:
    found = [folder / f"{stem}{f}" for f in formats if (folder / f"{stem}{f}").is_file()]
    if len(found) != 1:
        have = "none" if not found else " and ".join(p.name for p in found)
        raise UsageError(f"{folder}: a judged set holds one {stem} file "
                         f"({', '.join(stem + f for f in formats)}); found {have}")
    return found[0]


def _described(folder: Path) -> dict:
    path = folder / "set.json"
    if not path.is_file():
        return {}
    meta = parse_object(str(path), read_input(path), InputFileError)  # no repeated key, no NaN
    for key, ok, expected in (
            ("title", lambda v: isinstance(v, str), "a string"),
            ("source", lambda v: isinstance(v, str), "a string"),
            ("role", lambda v: v in ROLES, f"one of {', '.join(r for r in ROLES if r)}"),
            ("annotators", lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
             "a list of judge names")):
        if key in meta and not ok(meta[key]):
            raise InputFileError(str(path), f"$.{key}", expected=expected,
                                 got=json.dumps(meta[key]))
    return meta


def judged_set(name: str, *, read: Callable[[Path], Path] = Path) -> JudgedSet:
    """The set ``name``: a shipped one (:data:`SHIPPED_SETS`) or a folder; ``read`` is given
    each file's path before it is read (a notebook records its inputs with it)."""
    folder = SHIPPED_SETS.get(name, Path(name))
    if not folder.is_dir():
        raise UsageError(f"{name}: no such judged set (shipped: {', '.join(SHIPPED_SETS)}; "
                         "or a folder holding items, attempts and judgments files)")
    meta = _described(folder)
    files = read_judged_files(read(_one(folder, "items", (".jsonl", ".jsonl.gz"))),
                              read(_one(folder, "attempts", _FORMATS)),
                              read(_one(folder, "judgments", _FORMATS)))
    annotators = tuple(meta["annotators"]) if "annotators" in meta else None
    unknown = [a for a in annotators or () if a not in files.judgments.judges]
    if unknown:
        raise InputFileError(str(folder / "set.json"), "$.annotators", expected="judges of "
                             "the judgments file", got=repr(unknown[0]))
    label = name if name in SHIPPED_SETS else Path(name).name or os.fspath(name)
    return JudgedSet(label, meta.get("title", label), meta.get("role", ""), annotators,
                     meta.get("source", ""), files)


def read_judged_sets(names: str, *, items_path="", attempts_path="", judgments_path="",
                     read: Callable[[Path], Path] = Path) -> tuple[JudgedSet, ...]:
    """The sets named in ``names`` (comma-separated: shipped names or folders), in order; or,
    when the three paths are given, the one set of the three files named (``names`` unread),
    named after the items file's folder. Some of the three but not all is refused, naming
    what is missing: the sets would otherwise be read, and the paths given silently ignored.

    >>> read_judged_sets("example", judgments_path="mine.csv")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: 'judgments_path' was given without 'items_path' and 'attempts_path': a set of your own names all three of items_path, attempts_path and judgments_path; give all three, or none to read the sets named in 'sets'
    """
    paths = {"items_path": items_path, "attempts_path": attempts_path,
             "judgments_path": judgments_path}
    given = [name for name, path in paths.items() if path]
    if given and len(given) < len(paths):
        missing = [name for name in paths if name not in given]
        raise UsageError(f"{_quoted(given)} {'was' if len(given) == 1 else 'were'} given "
                         f"without {_quoted(missing)}: a set of your own names all three of "
                         "items_path, attempts_path and judgments_path; give all three, or "
                         "none to read the sets named in 'sets'")
    if given:
        files = read_judged_files(read(Path(items_path)), read(Path(attempts_path)),
                                  read(Path(judgments_path)))
        name = Path(items_path).resolve().parent.name or "files"
        return (JudgedSet(name, name, "", None, "", files),)
    listed = [n.strip() for n in names.split(",") if n.strip()]
    if not listed:
        raise UsageError("name at least one judged set (shipped: "
                         f"{', '.join(SHIPPED_SETS)}; or a folder)")
    return tuple(judged_set(n, read=read) for n in listed)


def _quoted(names: list[str]) -> str:
    """``'a'``, ``'a' and 'b'``."""
    return " and ".join(repr(name) for name in names)
