"""Random scored rows for the statistics over items: per system, several attempts per item."""

from __future__ import annotations

import numpy as np
import pandas as pd


def _scored(seed: int = 3, items: int = 80, systems=("a", "b")) -> pd.DataFrame:
    """Random scored rows: per system, 1 to 4 attempts per item, binary and F1-like scores."""
    rng = np.random.default_rng(seed)
    parts = []
    for s, system in enumerate(systems):
        ability = rng.random(items) * (0.6 + 0.2 * s)
        repeats = rng.integers(1, 5, size=items)
        item = np.repeat([f"q{i:03d}" for i in range(items)], repeats)
        p = np.repeat(ability, repeats)
        parts.append(pd.DataFrame({
            "system": system, "item": item,
            "literal_match": rng.random(len(item)) < p,
            "token_f1": np.clip(p + rng.normal(0, 0.1, len(item)), 0, 1),
        }))
    return pd.concat(parts, ignore_index=True)


def _item_means(scored, system, rule):
    rows = scored[scored["system"] == system]
    return rows.groupby("item", sort=True)[rule].mean().to_numpy(dtype=float)
