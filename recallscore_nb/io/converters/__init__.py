"""Converters for the three public sets of human judgments of free-text answers, so that a
user who cloned one starts in one command (``recallscore convert openqa-eval|evouna|
efficientqa``).

Each writes three files into an output folder, atomically: ``items.jsonl`` (one item a line:
``item``, ``question``, ``referenceAnswer`` as a list of alternatives), ``attempts.parquet``
(``item``, ``system``, ``attempt``) and ``judgments.csv`` (``item``, ``judge``, the key,
``verdict``: ``true``, ``false`` or empty for no verdict); and returns what it kept and left
out, one line each, for the command to print. The data sets themselves never enter this
repository. Every source is read and checked whole before anything is written
(:mod:`~recallscore_nb.io.converters.sources`: UTF-8 text, every JSON line and record, every TSV
row one line of the header's width, every verdict a known word); all its faults are raised
at once. The readers are :mod:`~recallscore_nb.io.converters.openqa`,
:mod:`~recallscore_nb.io.converters.evouna` and :mod:`~recallscore_nb.io.converters.efficientqa`;
:func:`_write` alone writes.

- **OpenQA-eval** (Kamalloo et al., ACL 2023; MIT): a folder holding
  ``data/model_outputs/*.jsonl`` and ``data/NQ301_*.tsv``. Items are the questions of the
  ``NQ_*.jsonl`` files (``nq-0001``, … in their order); each system is named after its file
  without ``NQ_``/``NQ301_`` and ``.jsonl``; a list prediction counts by its first element,
  and every prediction is stripped (as the authors' code does). Judgments are keyed by the
  answer text (column ``attempt``), by the judges ``human`` (the final label),
  ``annotator1``–``annotator3``, ``bem``, ``gpt-4`` and ``instructgpt``. The files do not
  share one gold list (``NQ_EviGen.jsonl`` repairs answers the others spell with mojibake):
  the items take the first ``NQ_*.jsonl`` file's, and an attempt whose own file lists other
  gold answers for its question carries them (column ``references``, a JSON list), so that
  each system is scored against its own file, as its authors did. The malformed
  ``NQ301_text-davinci-003.tsv`` (the tab between question and answer lost) is read by
  splitting the glued field after the longest known question it starts with.
- **EVOUNA** (Wang et al., NeurIPS 2023; Apache-2.0): one JSON list, plain or gzipped.
  Items are ``<stem>-0001``, … (``NQ-0001``); alternatives are the golden answer split at
  "/" (:func:`split_alternatives`: never inside a unit, a fraction or a date), stripped, the
  empty ones dropped; the references of one or two characters a split produced are listed.
  Improper questions are kept out (counted), as is a question with no golden answer left; a
  null answer that a person judged is an empty attempt (counted), one nobody judged is no
  attempt (counted). Judgments are keyed by system (column ``system``), by the judge
  ``human``; a null or ``"nan"`` verdict is written empty.
- **EfficientQA** (Min et al., PMLR 133, 2021; CC BY-SA 3.0 data, Apache-2.0 repository):
  ``NQ-open.efficientqa.test.1.1.jsonl``, plain or gzipped. Items are
  ``efficientqa-0001``, … by line, with the NQ gold list (stripped, blank ones dropped);
  every rated prediction (definitely correct, possibly correct, definitely incorrect: each
  answer exact match rejected) is one attempt of the system ``efficientqa-top`` (the lists
  name no system), keyed in the judgments by its text. Three judges read the same ratings:
  ``human`` (the definite ones; possibly correct is no verdict), ``human-strict``
  (possibly correct is wrong) and ``human-lenient`` (it is right). A text rated in two
  lists of one question is refused; a repeat in one list is one attempt.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .efficientqa import EFFICIENTQA_JUDGES, read_efficientqa
from .evouna import EVOUNA_SYSTEMS, read_evouna, split_alternatives
from .openqa import OPENQA_JUDGES, read_openqa_eval
from ...core.errors import UsageError
from ..output_sets import OutputSet

__all__ = ["Converter", "CONVERTERS", "register_converter", "convert", "convert_openqa_eval",
           "convert_evouna", "convert_efficientqa", "split_alternatives", "OPENQA_JUDGES",
           "EVOUNA_SYSTEMS", "EFFICIENTQA_JUDGES", "CONVERTED"]


CONVERTED = ("items.jsonl", "attempts.parquet", "judgments.csv")
"""The set ``convert`` writes into its output folder."""

Read = Callable[[str], tuple[list[dict], pd.DataFrame, list[dict], list[str]]]


@dataclass(frozen=True)
class Converter:
    """One public set of judgments ``recallscore convert`` reads: its ``name`` (the command's
    KIND), what its ``source`` is (the command's help), ``read`` (the source → items,
    attempts, judgments and the lines saying what was kept, every fault raised before
    anything is written), the column ``key`` that ties a judgment to its attempt
    (``attempt`` or ``system``) and whether the source is a ``folder``.

    >>> CONVERTERS["evouna"].key, CONVERTERS["openqa-eval"].folder
    ('system', True)
    """

    name: str
    source: str
    read: Read
    key: str
    folder: bool = False


CONVERTERS: dict[str, Converter] = {}
"""The converters by name, in the order the command lists them: a new data set is one
:func:`register_converter` call with its reader."""


def register_converter(converter: Converter) -> Converter:
    """Add a converter to :data:`CONVERTERS` (a name once only); return it."""
    if converter.name in CONVERTERS:
        raise ValueError(f"a converter named {converter.name!r} is registered already")
    if converter.key not in ("attempt", "system"):
        raise ValueError(f"converter {converter.name!r}: key must be attempt or system")
    CONVERTERS[converter.name] = converter
    return converter


register_converter(Converter(
    "openqa-eval", "the OpenQA-eval checkout (it holds data/model_outputs/ and "
    "data/NQ301_*.tsv)", read_openqa_eval, "attempt", folder=True))
register_converter(Converter("evouna", "NQ.json.gz or TQ.json.gz", read_evouna, "system"))
register_converter(Converter("efficientqa", "NQ-open.efficientqa.test.1.1.jsonl(.gz)",
                             read_efficientqa, "attempt"))


def convert(kind: str, source: str | os.PathLike[str], out_dir: str | os.PathLike[str], *,
            protected: Mapping[str, Path | None] | None = None) -> list[str]:
    """Convert ``source`` with the converter named ``kind`` (see the module docstring);
    return what was kept. Every source is read and checked first: nothing is written when
    one is bad, nor when the output would overwrite it. ``protected`` names folders the
    output may not be in (:class:`OutputSet`)."""
    converter = CONVERTERS.get(kind)
    if converter is None:
        raise UsageError(f"unknown data set {kind!r} (known: {', '.join(CONVERTERS)})")
    if converter.folder and not os.path.isdir(source):
        raise UsageError(f"{source}: not a folder; give {converter.source}")
    items, attempts, judgments, lines = converter.read(source)
    _write(out_dir, items, attempts, judgments, converter.key, {"source": source}, protected)
    return lines


def convert_openqa_eval(folder, out_dir, *, protected=None) -> list[str]:
    """:func:`convert` of an OpenQA-eval checkout."""
    return convert("openqa-eval", folder, out_dir, protected=protected)


def convert_evouna(path, out_dir, *, protected=None) -> list[str]:
    """:func:`convert` of one EVOUNA file."""
    return convert("evouna", path, out_dir, protected=protected)


def convert_efficientqa(path, out_dir, *, protected=None) -> list[str]:
    """:func:`convert` of the EfficientQA ratings file."""
    return convert("efficientqa", path, out_dir, protected=protected)


def _write(out_dir: str | os.PathLike[str], items: list[dict], attempts: pd.DataFrame,
           judgments: list[dict], key: str, inputs: dict, protected) -> None:
    """Write the three files as one set (:class:`OutputSet`): all of them or none."""
    table = pa.Table.from_pandas(attempts.reset_index(drop=True), preserve_index=False)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["item", "judge", key, "verdict"])
    writer.writerows([j["item"], j["judge"], j[key], j["verdict"]] for j in judgments)
    with OutputSet(out_dir, CONVERTED, inputs=inputs, protected=protected) as outputs:
        outputs.write_text("items.jsonl", "".join(json.dumps(i, ensure_ascii=False) + "\n"
                                                  for i in items))
        outputs.write("attempts.parquet", lambda tmp: pq.write_table(table, tmp))
        outputs.write_text("judgments.csv", text.getvalue())
