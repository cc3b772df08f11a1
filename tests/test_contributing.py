"""CONTRIBUTING.md's worked examples run as written: its ```python blocks, in order, in a
fresh interpreter (what they register stays there), print what the ```text block after each
says, the rule they add is scored, listed and signed, and notebook 08's table they add is built
and says what it shows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from recallscore_nb._version import __version__

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "CONTRIBUTING.md"


def python_blocks(text: str) -> list[tuple[str, str | None]]:
    """Each ```python block, with the ```text block that follows it right away (its output),
    or None.

    >>> python_blocks("```python\\nprint(1)\\n```\\n\\n```text\\n1\\n```\\n")
    [('print(1)\\n', '1\\n')]
    """
    blocks = re.findall(r"^```(python|text)\n(.*?)^```\n", text, flags=re.S | re.M)
    out = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "python":
            follows = blocks[i + 1] if i + 1 < len(blocks) else None
            after = text.split(f"```python\n{body}```\n", 1)[1].lstrip("\n")
            output = follows[1] if follows and follows[0] == "text" and after.startswith(
                "```text") else None
            out.append((body, output))
    return out


def test_the_worked_example_runs_as_written_and_prints_what_the_guide_shows():
    blocks = python_blocks(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) >= 4, "the worked example's blocks"
    script = "\n".join(body for body, _ in blocks)
    expected = "".join(output for _, output in blocks if output is not None)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.replace("version:0.1.0", f"version:{__version__}")
    assert "contains_numbers|norm:squad+numbers|" in done.stdout
    assert "4 judges, at least 24 attempts each." in done.stdout


def test_the_example_is_not_registered_in_this_process():
    import recallscore_nb as rs
    from recallscore_nb.analysis.meta_tables import META_TABLES

    assert "contains_numbers" not in [entry.name for entry in rs.rules()]
    assert "judged" not in META_TABLES
