"""The items shape of ``bench_scoring.py``: many items, each its own reference.

2,000 items × 100 attempts by default: each item's reference is the shipped reference with
words swapped for others (so every item differs), its checklist three facts drawn from its
own reference; attempts are perturbations of the item's reference (the generator of
``generate.py``, which ``bench_scoring`` uses too). The baseline scores row by row with
``reference_rules.score_row`` and the item's own reference and facts; the package reads the
items file with ``load_items`` and calls ``score_items`` once, in each round.
"""

from __future__ import annotations

import json
import random
import time

import generate as bench
from generate import reference_rules

WORDS = ("amber silver brass iron golden violet crimson marble cedar north south east harbor "
         "garden tower bridge library station morning evening noon closes starts ends").split()


def make_items(n_items: int, seed: int):
    """Items as (id, reference, [(fact, [terms])]); every reference distinct."""
    rng = random.Random(seed)
    base, _, _ = bench.load_benchmark()
    out = []
    for i in range(n_items):
        tokens = base.rstrip(".").split()
        for _ in range(3):
            tokens[rng.randrange(len(tokens))] = rng.choice(WORDS)
        tokens.append(f"w{i}")  # a token of its own: no two references are equal
        picks = rng.sample(range(len(tokens)), 4)
        facts = [("first", [tokens[picks[0]]]), ("pair", [tokens[picks[1]], tokens[picks[2]]]),
                 ("own", [tokens[-1]])]
        out.append((f"item{i:04d}", " ".join(tokens) + ".", facts))
    return out


def write_items_file(path, items) -> None:
    """``items`` ((id, reference, [(fact, [terms])]) as :func:`make_items` gives them) as an
    items file, one JSON object a line."""
    with open(path, "w", encoding="utf-8") as fh:
        for item_id, reference, facts in items:
            fh.write(json.dumps({"item": item_id, "referenceAnswer": reference,
                                 "factChecklist": [{"fact": n, "requiredTerms": t}
                                                   for n, t in facts]}) + "\n")


def run(args) -> dict:
    """The items shape of ``bench_scoring.py``: the loop, ``score_items(load_items(…))``, the
    command; the result dict ``bench_scoring.report`` prints."""
    import tempfile
    from pathlib import Path

    import pandas as pd
    import pyarrow as pa

    from bench_scoring import command, package_runs
    from recallscore_nb.execution.api import load_items, score_items

    per_item = max(1, args.item_rows // args.items)
    items = make_items(args.items, args.seed)
    print(f"items: generating {args.items:,} items x {per_item:,} attempts (seed {args.seed}) "
          "...", flush=True)
    rows = []
    for k, (item_id, reference, _) in enumerate(items):
        for attempt in bench.make_attempts([reference], per_item, args.seed + k):
            rows.append((item_id, attempt))
    print("  the per-row loop ...", flush=True)
    baseline, columns, expected = _loop(items, rows, args.squad_mode)
    frame = pd.DataFrame(rows, columns=["item", "attempt"])
    result = {"shape": f"items ({args.items:,} x {per_item:,})", "rows": len(rows),
              "baseline": baseline}
    with tempfile.TemporaryDirectory(prefix="bench_items_") as tmp:
        path = Path(tmp) / "items.jsonl"
        write_items_file(path, items)

        def api(processes):
            return lambda: score_items(load_items(path), frame, squad_mode=args.squad_mode,
                                       processes=processes, rules=args.rules)
        package_runs(result, api, args, "score_items(load_items(...))", columns, expected)
        if not args.skip_cli:
            table = pa.table({"id": bench.attempt_ids(len(rows)),
                              "item": [i for i, _ in rows], "attempt": [a for _, a in rows]})
            command(result, table, [str(path)], args, columns, expected)
    if not args.skip_independent:
        print("  the independent loop (baseline_loop.py, files included) ...", flush=True)
        result["independent"] = bench.run_independent([a for _, a in rows],
                                                      [i for i, _ in rows], items)
    return result


def _loop(items, rows, mode):
    """The per-row loop against each row's own item: ``score_row``, the absent facts' names
    joined as the package joins them; (seconds, columns, one tuple a row)."""
    by_id = {i: ([r], f) for i, r, f in items}
    score_row = reference_rules.score_row
    start = time.perf_counter()
    expected = []
    for item_id, attempt in rows:
        references, facts = by_id[item_id]
        result = score_row(attempt, references, facts, mode)
        missing = ";".join(n for n, _ in facts if not result[f"fact_{n}"])
        expected.append(tuple(v for k, v in result.items() if not k.startswith("fact_"))
                        + (missing,))
    seconds = time.perf_counter() - start
    first = score_row(rows[0][1], *by_id[rows[0][0]], mode)
    return seconds, [k for k in first if not k.startswith("fact_")] + ["facts_missing"], expected
