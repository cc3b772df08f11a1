"""Drafting a benchmark from a reference: fixed kinds of variant, labelled by what was done.

Each kind of variant is a pure function ``(reference, facts, rng, ...)`` that returns the
variant's text, or an :class:`Unavailable` (falsy, carrying the reason) when the reference
gives it nothing to work on, such as no clause to reorder: those that change only the wording
are in :mod:`~recallscore_nb.analysis.perturb_wording`, those that touch a fact in
:mod:`~recallscore_nb.analysis.perturb_facts`, both built on the words of
:mod:`~recallscore_nb.analysis.perturb_text`. :data:`KINDS` lists them in the order of the
shipped benchmark's conditions, then the kinds a scoring schema exists for.
:func:`perturb_benchmark` makes every kind that can be made and labels each row from the
transformation it applied (:data:`INTENDED_LABELS`, :data:`CHECKLIST_LOSES`), never by
scoring it: ``recallscore reproduce`` on the draft then tests the scorer against what the
variants are. It returns a schema-version-1 benchmark with the kinds it skipped;
:func:`dumps_benchmark` spells it as the file ``recallscore perturb`` writes
(:func:`recallscore_nb.cli.handlers.perturb_command`).

What each label says: ``literalMatch`` and ``normalizedMatch``, whether the transformation
kept the text, or kept it up to case, ASCII punctuation and spacing; ``fixtureFactsComplete``,
whether the answer still states every fact (a negated, hedged or stuffed answer does not; a
paraphrase does); ``factsPresent`` and ``checklistFullMatch``, what the published checklist,
which sees only the required terms, must give: a paraphrased fact is lost to it, a negated or
hedged one is not.

One row is made per fact for "omitted" and "changed" (conditions ``"<fact> omitted"`` and
``"<fact> changed"``), so every fact's omission and change is drafted; the functions choose a
fact with ``rng`` when not told which. A random choice (the leading phrase, the widened gap,
the alternative value, the clause boundary when there are several) is drawn from a
``random.Random`` seeded by the seed and the condition, so a kind skipped or added never
shifts the others.

>>> from recallscore_nb import load_benchmark
>>> doc, skipped = perturb_benchmark(load_benchmark(), seed=0)
>>> len(doc["rows"]), skipped[0]
(22, ('object changed', 'no built-in alternative for its terms (token)'))
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._version import __version__
from ..core.errors import UsageError
from ..core.facts import Fact
from ..core.normalize import SEED
from .perturb_facts import (Contradictions, change_fact, hedge_fact, negate_fact, omit_fact,
                            paraphrase_fact, stuff_answer, stuffing_attempt)
from .perturb_text import Unavailable, Variant
from .perturb_wording import (add_leading_context, change_spacing, copy_exact,
                              drop_articles_and_verb, remove_punctuation, reorder_clauses,
                              telegraphic, uppercase)
from .reproduce import ROW_LABELS

__all__ = [
    "Unavailable",
    "KINDS",
    "INTENDED_LABELS",
    "copy_exact",
    "uppercase",
    "remove_punctuation",
    "change_spacing",
    "reorder_clauses",
    "telegraphic",
    "add_leading_context",
    "drop_articles_and_verb",
    "omit_fact",
    "change_fact",
    "negate_fact",
    "paraphrase_fact",
    "hedge_fact",
    "stuffing_attempt",
    "stuff_answer",
    "CHECKLIST_LOSES",
    "perturb_benchmark",
    "dumps_benchmark",
]

KINDS: dict[str, Callable[..., Variant]] = {
    "reference copied exactly": copy_exact,
    "uppercase": uppercase,
    "punctuation removed": remove_punctuation,
    "spacing changed": change_spacing,
    "clauses reordered": reorder_clauses,
    "telegraphic wording": telegraphic,
    "leading context added": add_leading_context,
    "articles and verb removed": drop_articles_and_verb,
    "fact omitted": omit_fact,
    "fact changed": change_fact,
    "fact negated": negate_fact,
    "fact paraphrased": paraphrase_fact,
    "fact hedged": hedge_fact,
    "answer stuffed": stuff_answer,
}
"""The kinds of variant in the shipped order, by name, then the kinds a scoring schema
exists for; the ``fact …`` ones make one row per fact, with the condition ``"<fact>
omitted"``, ``"<fact> changed"`` and so on."""

PER_FACT = {"fact omitted": "omitted", "fact changed": "changed", "fact negated": "negated",
            "fact paraphrased": "paraphrased", "fact hedged": "hedged"}

INTENDED_LABELS: dict[str, tuple[bool, bool, bool]] = {
    "reference copied exactly": (True, True, True),
    "uppercase": (False, True, True),
    "punctuation removed": (False, True, True),
    "spacing changed": (False, True, True),
    "clauses reordered": (False, False, True),
    "telegraphic wording": (False, False, True),
    "leading context added": (False, False, True),
    "articles and verb removed": (False, False, True),
    "fact omitted": (False, False, False),
    "fact changed": (False, False, False),
    "fact negated": (False, False, False),
    "fact paraphrased": (False, False, True),
    "fact hedged": (False, False, False),
    "answer stuffed": (False, False, False),
}
"""(literalMatch, normalizedMatch, fixtureFactsComplete) each kind has by construction:
whether the text is kept, kept up to case, ASCII punctuation and spacing, and whether the
answer still states every fact."""

CHECKLIST_LOSES = frozenset({"fact omitted", "fact changed", "fact paraphrased"})
"""The kinds whose fact's required terms are gone, so the published checklist must find one
fact fewer (``factsPresent`` n − 1, no full match); every other kind keeps every required
term, and the checklist must find them all, even where the answer is wrong."""


def _rng(seed: int, condition: str) -> random.Random:
    return random.Random(f"recallscore-perturb:{seed}:{condition}")


def _check_contradictions(contradictions, facts: Sequence[Fact]) -> dict[str, list[list[str]]]:
    if contradictions is None:
        return {}
    if not isinstance(contradictions, Mapping):
        raise UsageError("'contradictions' must be a mapping of fact names to lists of term "
                         f"lists (got {contradictions!r} that is a {type(contradictions)!r})")
    names = [f.name for f in facts]
    out = {}
    for name, lists in contradictions.items():
        if name not in names:
            raise UsageError(f"'contradictions' names fact {name!r}, which is not in the "
                             f"checklist ({', '.join(names)})")
        if isinstance(lists, str) or any(
                isinstance(terms, str) or not all(isinstance(t, str) for t in terms)
                for terms in lists):
            raise UsageError(f"'contradictions[{name!r}]' must be a list of lists of terms "
                             f"(got {lists!r})")
        # a list with a term that normalizes to nothing can never be matched: leave it out
        out[name] = [list(terms) for terms in lists if terms and all(SEED(t) for t in terms)]
    return out


def _drafts(benchmark, seed: int, contradictions, equivalents=None):
    """(kind, condition, attempt) for every variant made, (condition, reason) for every one
    skipped, and every condition in order."""
    reference, facts = benchmark.reference, benchmark.facts
    made, skipped, conditions = [], [], []
    for kind, function in KINDS.items():
        if kind in PER_FACT:
            jobs = [(f"{fact.name} {PER_FACT[kind]}", {"fact": fact.name}) for fact in facts]
        else:
            jobs = [(kind, {})]
        for condition, options in jobs:
            if function in (change_fact, hedge_fact, stuff_answer):
                options["contradictions"] = contradictions
            if function in (paraphrase_fact, stuff_answer):
                options["equivalents"] = equivalents
            result = function(reference, facts, _rng(seed, condition), **options)
            conditions.append(condition)
            if result:
                made.append((kind, condition, result))
            else:
                skipped.append((condition, result.reason))
    return made, skipped, conditions


def perturb_benchmark(benchmark, *, seed: int = 0,
                      contradictions: Contradictions | None = None,
                      equivalents: Contradictions | None = None,
                      ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Draft a benchmark of variants of ``benchmark``'s reference, labelled by what each
    transformation did (never by scoring them).

    Parameters
    ----------
    benchmark : Benchmark
        Its reference answer and fact checklist are used; its rows are not.
    seed : int
        Seeds every random choice; the same seed gives the same benchmark.
    contradictions : mapping of str to list of list of str, optional
        Per fact, the term lists that count as a wrong value (a scoring schema's
        ``contradictions``); facts left out use
        :data:`~recallscore_nb.analysis.perturb_facts.ALTERNATIVES`.
    equivalents : mapping of str to list of list of str, optional
        Per fact, the term lists that count as the fact (a scoring schema's
        ``equivalents``), for the paraphrased and stuffed variants.

    Returns
    -------
    benchmark : dict
        A schema-version-1 benchmark: the reference, the checklist, one row per variant made
        (ids ``P01``, ``P02``, ...) with ``condition``, ``fixtureFactsComplete`` and the labels
        ``literalMatch``, ``normalizedMatch``, ``factsPresent`` and ``checklistFullMatch``
        that its transformation implies (:data:`INTENDED_LABELS`, :data:`CHECKLIST_LOSES`),
        the summary counts, and ``generatedBy`` with the seed and what was skipped.
    skipped : list of (condition, reason)
        The variants that could not be made, in :data:`KINDS` order.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"'seed' must be an integer (got {seed!r} that is a {type(seed)!r})")
    facts = benchmark.facts
    contradictions = _check_contradictions(contradictions, facts)
    equivalents = _check_contradictions(equivalents, facts)
    made, skipped, conditions = _drafts(benchmark, seed, contradictions, equivalents)
    rows = []
    for kind, condition, attempt in made:
        literal, normalized, complete = INTENDED_LABELS[kind]
        lost = kind in CHECKLIST_LOSES
        labels = (literal, normalized, len(facts) - lost, not lost)
        rows.append({
            "id": "",
            "condition": condition,
            "attempt": attempt,
            "fixtureFactsComplete": complete,
            **dict(zip(ROW_LABELS, labels)),
        })
    for i, row in enumerate(rows, start=1):
        row["id"] = f"P{i:02d}"
    skipped.sort(key=lambda item: conditions.index(item[0]))
    return _document(benchmark, rows, skipped, seed, bool(contradictions)), skipped


def _document(benchmark, rows, skipped, seed, with_contradictions) -> dict[str, Any]:
    source = Path(benchmark.path).name
    complete = sum(row["fixtureFactsComplete"] for row in rows)
    title = benchmark.title or source
    return {
        "schemaVersion": 1,
        "title": f"Perturbations of the reference of {title} (draft, seed {seed})",
        "referenceAnswer": benchmark.reference,
        "protocol": {
            "factChecklist": [{"fact": f.name, "requiredTerms": list(f.terms)}
                              for f in benchmark.facts],
        },
        "summary": {
            "variantCount": len(rows),
            "completeFactFixtures": complete,
            "oneFactChangedOrMissingFixtures": len(rows) - complete,
            "literalFullMatches": sum(row["literalMatch"] for row in rows),
            "normalizedFullMatches": sum(row["normalizedMatch"] for row in rows),
            "checklistFullMatches": sum(row["checklistFullMatch"] for row in rows),
        },
        "rows": rows,
        "limitations": [
            "The attempts are generated from the reference by fixed English heuristics, not "
            "written by people; read every row before publishing.",
            "The labels say what each transformation did (fixtureFactsComplete: whether the "
            "answer still states every fact) and what the published rules must then give; "
            "they are not computed by scoring, so recallscore reproduce tests the scorer.",
            "Kinds of variant that could not be made for this reference are left out "
            "(see generatedBy.skipped).",
        ],
        "versionHistory": [{
            "version": "0.1.0",
            "change": f"Drafted by recallscore perturb {__version__} with seed {seed} from "
                      f"{source}.",
        }],
        "generatedBy": {
            "command": "recallscore perturb",
            "version": __version__,
            "seed": seed,
            "source": {"file": source, "sha256": benchmark.sha256},
            "changedValues": ("scoring schema contradictions, else built-in alternatives"
                              if with_contradictions else "built-in alternatives"),
            "skipped": [{"condition": c, "reason": r} for c, r in skipped],
        },
    }


def dumps_benchmark(document: Mapping[str, Any]) -> str:
    """The benchmark as JSON text: two-space indentation, one row per line, final newline.

    >>> print(dumps_benchmark({"schemaVersion": 1, "rows": [{"id": "P01"}]}), end="")
    {
      "schemaVersion": 1,
      "rows": [
        {"id": "P01"}
      ]
    }
    """
    marker = "\u0000rows\u0000"
    text = json.dumps({**document, "rows": marker}, indent=2, ensure_ascii=False)
    rows = ",\n".join("    " + json.dumps(row, ensure_ascii=False) for row in document["rows"])
    block = f"[\n{rows}\n  ]" if rows else "[]"
    return text.replace(f'\n  "rows": {json.dumps(marker)}', f'\n  "rows": {block}', 1) + "\n"
