"""Whether the workbook's committed outputs differ from the last commit, as git sees them.

``recallscore check`` compares ``reports/`` with a fresh run; when ``reports/`` was itself
rewritten since the last commit (a ``make reports`` after a stray save, say), that comparison
says nothing about the paper as committed. :func:`changed_since_commit` names the files git
sees changed, added or removed under a folder, so that the check can say so. Outside a git
checkout, or without git, it finds nothing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["changed_since_commit"]


def changed_since_commit(root: Path, folder: str = "reports") -> list[str]:
    """The files under ``root/folder`` that differ from git's last commit (modified, added,
    deleted or untracked, ignored files aside), as ``status path`` lines relative to
    ``root``; empty outside a git checkout or without git."""
    git = shutil.which("git")
    if git is None or root is None:
        return []
    try:
        run = subprocess.run([git, "-C", str(root), "status", "--porcelain=v1", "-z",
                              "--untracked-files=all", "--", folder],
                             capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    if run.returncode != 0:  # not a git checkout
        return []
    entries = [e for e in run.stdout.decode("utf-8", "replace").split("\0") if e]
    changed, skip = [], False
    for entry in entries:
        if skip:  # the source path of a rename
            skip = False
            continue
        code, path = entry[:2], entry[3:]
        skip = "R" in code or "C" in code
        changed.append(f"{_STATUS.get(code.strip()[:1], 'changed')}: {path}")
    return changed


_STATUS = {"M": "modified", "A": "added", "D": "deleted", "R": "renamed", "?": "untracked",
           "T": "modified", "U": "unmerged", "C": "copied"}
