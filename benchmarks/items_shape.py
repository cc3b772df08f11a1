"""The multi-item shape of ``bench_scoring.py --shape items``: many items, each its own reference.

1,000 items × 1,000 attempts by default: each item's reference is the shipped reference with
words swapped for others (so every item differs), its checklist three facts drawn from its
own reference; attempts are perturbations of the item's reference (the generator of
``generate.py``, which ``bench_scoring`` uses too). The baseline scores row by row with ``reference_rules.score_row`` and the
item's own reference and facts; the package calls ``score_items`` once.
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


def run(args) -> int:
    import pandas as pd

    from recallscore_nb.core.items import Item, Items
    from recallscore_nb.core.facts import Fact
    from recallscore_nb.execution.api import score_items

    per_item = max(1, args.rows // args.items)
    items = make_items(args.items, args.seed)
    print(f"generating {args.items:,} items x {per_item:,} attempts (seed {args.seed}) ...", flush=True)
    rows = []
    for k, (item_id, reference, _) in enumerate(items):
        for attempt in bench.make_attempts([reference], per_item, args.seed + k):
            rows.append((item_id, attempt))
    attempts = pd.DataFrame(rows, columns=["item", "attempt"])
    package_items = Items("generated", "", tuple(
        Item(i, (r,), tuple(Fact(n, tuple(t)) for n, t in f)) for i, r, f in items))
    timings, single = [], []
    frame = None
    for _ in range(args.rounds if args.processes > 1 else 0):
        start = time.perf_counter()
        score_items(package_items, attempts, squad_mode=args.squad_mode)
        single.append(time.perf_counter() - start)
    for _ in range(args.rounds):
        start = time.perf_counter()
        frame = score_items(package_items, attempts, squad_mode=args.squad_mode,
                            processes=args.processes)
        timings.append(time.perf_counter() - start)
    package = sorted(timings)[len(timings) // 2]
    by_id = {i: (r, f) for i, r, f in items}
    print(f"baseline over {len(attempts):,} rows ...", flush=True)
    start = time.perf_counter()
    expected = []
    for item_id, attempt in rows:
        reference, facts = by_id[item_id]
        result = reference_rules.score_row(attempt, [reference], facts, args.squad_mode)
        missing = ";".join(n for n, _ in facts if not result[f"fact_{n}"])
        expected.append((result["literal_match"], result["normalized_match"],
                         result["squad_exact_match"], result["token_f1"],
                         result["facts_present"], missing))
    baseline = time.perf_counter() - start
    got = list(zip(frame["literal_match"], frame["normalized_match"], frame["squad_exact_match"],
                   frame["token_f1"], frame["facts_present"].astype(int), frame["facts_missing"]))
    differ = [i for i, (a, b) in enumerate(zip(expected, got)) if tuple(a) != tuple(b)]
    n = len(attempts)
    independent = None
    if not args.skip_independent:
        print("independent per-row loop: baseline_loop.py (file read included) ...", flush=True)
        independent = bench.run_independent([a for _, a in rows], [i for i, _ in rows], items)
    print(f"\nrecallscore multi-item benchmark (squad_mode {args.squad_mode})")
    print(f"  items x attempts            {args.items:,} x {per_item:,} = {n:,}")
    print(f"  baseline (per-row loop)     {bench.fmt_rate(n, baseline)}   {baseline:.2f} s")
    print(f"  package score_items         {bench.fmt_rate(n, package)}   {package:.3f} s, "
          f"median of {args.rounds}, {args.processes} process(es)")
    ratio = baseline / package
    print(f"  ratio package/baseline      {ratio:.1f}x   goal >= 40x: "
          f"{'met' if ratio >= 40 else 'NOT met'}")
    if single:
        one = sorted(single)[len(single) // 2]
        print(f"  package, one process        {bench.fmt_rate(n, one)}   {one:.3f} s; "
              f"ratio {baseline / one:.1f}x")
    if independent is not None:
        print(f"  independent loop, file read {bench.fmt_rate(n, independent)}   "
              f"{independent:.2f} s (baseline_loop.py)")
        ratio = independent / package
        print(f"  ratio package/independent   {ratio:.1f}x   goal >= 40x: "
              f"{'met' if ratio >= 40 else 'NOT met'}"
              + (f"; one process {independent / one:.1f}x" if single else ""))
    print(f"  agreement                   {'every row' if not differ else f'{len(differ)} rows DIFFER'}")
    for i in differ[:bench.SHOW_DIFFS]:
        print(f"    row {i}: {rows[i]!r}: reference {expected[i]} package {got[i]}")
    return 1 if differ else 0
