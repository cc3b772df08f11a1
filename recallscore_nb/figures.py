"""Figures: ``plot_*(ax, table, …)`` functions draw and return artists; callers save.

:func:`figure` makes a figure under the shipped style on top of matplotlib's defaults (never
the user's ``matplotlibrc``); :func:`save_figure` writes PNG, PDF and SVG with no dates or
software stamps, so the same data gives the same bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from .files import atomic_write  # noqa: E402
from .paths import DATA_DIR  # noqa: E402

__all__ = ["style", "use_style", "figure", "save_figure", "FIGURE_FORMATS", "STYLE_FILE"]

STYLE_FILE = DATA_DIR / "recallscore.mplstyle"
FIGURE_FORMATS = ("png", "pdf", "svg")


@contextlib.contextmanager
def style() -> Iterator[None]:
    """matplotlib's defaults plus the shipped style, for the duration of the block."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        plt.style.use(STYLE_FILE)
        yield


def use_style() -> None:
    """Make matplotlib's defaults plus the shipped style this process's settings.

    Text and line properties are read when an artist is drawn, not when its figure is made, so
    the style must still hold while the caller draws: the workbook's kernels draw nothing else.
    """
    matplotlib.rcdefaults()
    plt.style.use(STYLE_FILE)


def figure(nrows: int = 1, ncols: int = 1, **kwargs):
    """A new figure and axes, with the shipped style in force (see :func:`use_style`)."""
    use_style()
    return plt.subplots(nrows, ncols, **kwargs)


def _metadata(fmt: str, description: str) -> dict[str, str | None]:
    if fmt == "png":
        return {"Software": None, "Description": description}
    if fmt == "pdf":
        return {"Creator": None, "Producer": None, "CreationDate": None, "ModDate": None,
                "Subject": description}
    return {"Creator": None, "Date": None, "Format": None, "Type": None,
            "Description": description}


def save_figure(fig, directory: str | Path, name: str, *, description: str = "") -> list[Path]:
    """Write ``fig`` as ``<name>.png``, ``.pdf`` and ``.svg`` into ``directory``, atomically.

    ``description`` (scorer signatures, input hashes) goes into each file's metadata.
    Returns the written paths; closes the figure.
    """
    paths = []
    with style():
        for fmt in FIGURE_FORMATS:
            path = Path(directory) / f"{name}.{fmt}"
            atomic_write(path, lambda tmp, fmt=fmt: fig.savefig(
                tmp, format=fmt, metadata=_metadata(fmt, description)))
            paths.append(path)
    plt.close(fig)
    return paths
