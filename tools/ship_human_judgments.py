"""Convert the public human-judged sets and write the compressed copies the package ships.

    python tools/ship_human_judgments.py ../shared/human-judgments recallscore_nb/data/human_judgments

Each set becomes a folder of three files: ``items.jsonl.gz`` (gzip, no timestamp),
``attempts.parquet`` and ``judgments.parquet`` (zstd), converted by ``recallscore convert``
and nothing else; only the judged questions are kept (OpenQA-eval's 301, NQ301; EfficientQA's
1,576 with a rated prediction) and their attempts.
Each folder also gets its source's licence (``LICENSE``). Running it again writes the same
tables (``tests/io/test_human_sets.py`` checks the shipped ones against a fresh conversion).
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from recallscore_nb.io.converters import (convert_efficientqa, convert_evouna,
                                           convert_openqa_eval)

SETS = {"evouna-nq": ("EVOUNA", "NQ.json.gz"), "evouna-tq": ("EVOUNA", "TQ.json.gz"),
        "openqa-nq301": ("OpenQA-eval", ""),
        "efficientqa": ("EfficientQA", "NQ-open.efficientqa.test.1.1.jsonl.gz")}


def _parquet(frame: pd.DataFrame, path: Path) -> None:
    table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    pq.write_table(table, path, compression="zstd", compression_level=19)


def ship(source: Path, out: Path) -> None:
    for name, (folder, file) in SETS.items():
        with tempfile.TemporaryDirectory() as tmp:
            if folder == "EVOUNA":
                convert_evouna(source / folder / file, tmp)
            elif folder == "EfficientQA":
                convert_efficientqa(source / folder / file, tmp)
            else:
                convert_openqa_eval(source / folder, tmp)
            lines = Path(tmp, "items.jsonl").read_text(encoding="utf-8").split("\n")
            items = [json.loads(line) for line in lines if line]
            attempts = pd.read_parquet(Path(tmp, "attempts.parquet"))
            judgments = pd.read_csv(Path(tmp, "judgments.csv"), dtype=str,
                                    keep_default_na=False)
        judged = set(judgments.loc[judgments["verdict"] != "", "item"])
        items = [i for i in items if i["item"] in judged]
        attempts = attempts[attempts["item"].isin(judged)]
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items)
        (target / "items.jsonl.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        _parquet(attempts, target / "attempts.parquet")
        _parquet(judgments[judgments["item"].isin(judged)], target / "judgments.parquet")
        shutil.copyfile(source / folder / "LICENSE", target / "LICENSE")
        print(f"{name}: {len(items)} items, {len(attempts)} attempts, "
              f"{int((judgments['verdict'] != '').sum())} verdicts")


if __name__ == "__main__":
    ship(Path(sys.argv[1]), Path(sys.argv[2]))
