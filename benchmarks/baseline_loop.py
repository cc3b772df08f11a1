"""An independent per-row baseline, loading and writing included: what a user without the
package would write.

Reads an attempts CSV with the ``csv`` module (or JSONL with ``json``), scores every row with
the reference rules of ``tests/oracles/reference_rules.py`` (the official SQuAD scripts' logic
and the protocol's rules, every rule the oracle has), one row at a time, and writes one JSON
object per row. Against the shipped benchmark's reference and checklist, or with ``--items``
each row against its own item (an items JSONL file read with ``json``).

    .venv/bin/python benchmarks/baseline_loop.py attempts.csv --out scores.jsonl
    .venv/bin/python benchmarks/baseline_loop.py attempts.csv --items items.jsonl --out s.jsonl

It prints the rows, the seconds and the rows per second on standard error. ``--check``
compares its rows with a scored file of ``recallscore score`` (every column the oracle has,
floats with ``==``) and exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time

from generate import load_benchmark, reference_rules


def _items(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        out = {}
        for line in fh:
            if line.strip():
                record = json.loads(line)
                refs = record["referenceAnswer"]
                facts = [(f["fact"], f["requiredTerms"]) for f in record.get("factChecklist") or []]
                out[record["item"]] = ([refs] if isinstance(refs, str) else refs, facts)
        return out


def _rows(path: str):
    with open(path, encoding="utf-8", newline="") as fh:
        if path.endswith(".jsonl"):
            for line in fh:
                if line.strip():
                    yield json.loads(line)
        else:
            yield from csv.DictReader(fh)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("attempts")
    parser.add_argument("--items")
    parser.add_argument("--out", required=True)
    parser.add_argument("--mode", default="v1.1", choices=("v1.1", "v2.0"))
    parser.add_argument("--check", help="a scored file of recallscore score to compare with")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    items = _items(args.items) if args.items else None
    reference, facts, _ = load_benchmark()
    score_row = reference_rules.score_row
    n = 0
    results = [] if args.check else None
    with open(args.out, "w", encoding="utf-8") as out:
        for number, row in enumerate(_rows(args.attempts)):
            refs, row_facts = items[row["item"]] if items is not None else ([reference], facts)
            result = score_row(row["attempt"], refs, row_facts, args.mode)
            if items is not None:
                missing = ";".join(name for name, _ in row_facts if not result[f"fact_{name}"])
                result = {k: v for k, v in result.items() if not k.startswith("fact_")}
                result["facts_missing"] = missing
            result = {"id": row.get("id", str(number)), **result}
            out.write(json.dumps(result) + "\n")
            if results is not None:
                results.append(result)
            n += 1
    seconds = time.perf_counter() - start
    print(f"{n} rows in {seconds:.2f} s: {n / seconds:,.0f} rows/s", file=sys.stderr)
    if args.check:
        import pandas as pd

        scored = pd.read_parquet(args.check) if args.check.endswith(".parquet") else \
            pd.read_json(args.check, lines=True, dtype=False)
        differ = 0
        for column in results[0]:
            if column == "id" or column not in scored.columns:
                continue
            ours = [r[column] for r in results]
            theirs = scored[column].tolist()
            bad = [i for i, (a, b) in enumerate(zip(ours, theirs))
                   if not (a == b or (a == "" and b is None) or (b is pd.NA and a == ""))]
            if bad:
                differ += len(bad)
                print(f"{column}: {len(bad)} rows differ, e.g. row {bad[0]}: "
                      f"{ours[bad[0]]!r} vs {theirs[bad[0]]!r}", file=sys.stderr)
        print("every row equal" if not differ else f"{differ} values differ", file=sys.stderr)
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
