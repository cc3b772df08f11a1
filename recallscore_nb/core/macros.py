"""The names of the paper's LaTeX macros (``paper/numbers.tex``): a macro's name may hold
letters only, so every part of it that comes from a name (a judged set, a normalization
pipeline, a gaming family) is written by :func:`macro_tag`, the one place that does it.
"""

from __future__ import annotations

import re

__all__ = ["macro_tag"]


def macro_tag(text: str) -> str:
    """``text`` as letters only, each run of letters capitalized, for a LaTeX macro's name:
    digits and every other character are dropped, as TeX allows none in a name.

    >>> macro_tag("openqa-nq301"), macro_tag("seed+nfkc"), macro_tag("seed-nocase")
    ('OpenqaNq', 'SeedNfkc', 'SeedNocase')
    >>> macro_tag("évolution 2"), macro_tag("")
    ('Volution', '')
    """
    return "".join(p.capitalize() for p in re.split(r"[^A-Za-z]+", text) if p)
