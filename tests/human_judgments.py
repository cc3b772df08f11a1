"""Where the public human-judgment data sets are: ``../shared/human-judgments`` beside the
repository (CI has it). Tests that need them skip, saying why, when it is absent; they never
copy the data into the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HUMAN_JUDGMENTS = ROOT.parent / "shared" / "human-judgments"
OPENQA_EVAL = HUMAN_JUDGMENTS / "OpenQA-eval"
EVOUNA = HUMAN_JUDGMENTS / "EVOUNA"

needs_data = pytest.mark.skipif(
    not HUMAN_JUDGMENTS.is_dir(),
    reason=f"the public human-judgment data sets are not at {HUMAN_JUDGMENTS}")
