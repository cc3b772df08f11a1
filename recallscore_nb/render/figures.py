"""Figures: ``plot_*(ax, table, …)`` functions draw and return artists; callers save.

:func:`figure` makes a figure under the shipped style on top of matplotlib's defaults (never
the user's ``matplotlibrc``); :func:`save_figure` writes PNG, PDF and SVG with no dates or
software stamps, so the same data gives the same bytes. :func:`measure` reports how a figure
prints: its saved size and every text drawn, so a test can hold each figure to the paper's
text width (:data:`TEXT_WIDTH`) and smallest legible text (:data:`MIN_POINTS`).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from ..io.files import atomic_write  # noqa: E402
from ..io.data import DATA_DIR  # noqa: E402

__all__ = ["style", "use_style", "figure", "save_figure", "measure", "DrawnText",
           "Measurement", "FIGURE_FORMATS", "STYLE_FILE", "TEXT_WIDTH", "FIGURE_WIDTH",
           "MIN_POINTS"]

STYLE_FILE = DATA_DIR / "recallscore.mplstyle"
FIGURE_FORMATS = ("png", "pdf", "svg")
TEXT_WIDTH = 7.0
"""The paper's text width in inches: the widest a figure prints without being scaled down."""
FIGURE_WIDTH = 6.9
"""The width to give a full-width figure: saved (a tight box, padded by 0.05 in) it is a
little under :data:`TEXT_WIDTH` wide."""
MIN_POINTS = 7.0
"""The smallest text size, in points, a figure may print at :data:`TEXT_WIDTH`."""


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


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: its string, size in points, and extent in inches from the lower
    left corner of the figure, ``(x0, y0, x1, y1)``."""

    text: str
    points: float
    extent: tuple[float, float, float, float]


@dataclass(frozen=True)
class Measurement:
    """How a figure prints: its saved size in inches and every text it draws."""

    width: float
    height: float
    texts: tuple[DrawnText, ...]

    @property
    def smallest(self) -> DrawnText:
        """The smallest text drawn."""
        return min(self.texts, key=lambda t: t.points)

    def printed_points(self, text_width: float = TEXT_WIDTH) -> float:
        """The smallest text's size once the figure is scaled to fit ``text_width`` (a figure
        narrower than that prints at its own size)."""
        return self.smallest.points * min(1.0, text_width / self.width)

    def overlaps(self, tolerance: float = 0.5) -> list[tuple[str, str]]:
        """Pairs of drawn texts whose extents overlap by more than ``tolerance`` points
        both ways."""
        margin = tolerance / 72
        return [(a.text, b.text) for a, b in itertools.combinations(self.texts, 2)
                if min(a.extent[2], b.extent[2]) - max(a.extent[0], b.extent[0]) > margin
                and min(a.extent[3], b.extent[3]) - max(a.extent[1], b.extent[1]) > margin]


def measure(fig) -> Measurement:
    """Draw ``fig`` under the shipped style as :func:`save_figure` does and measure it.

    The size is the saved one (with ``savefig.bbox: tight``, the tight bounding box plus its
    padding); the texts are those the renderer actually draws (titles, labels, tick labels,
    legend texts, annotations), not the artists that stay hidden.

    >>> fig, ax = figure(figsize=(16.0, 4.0), layout="constrained")
    >>> ax.set_axis_off()
    >>> _ = ax.set_title("wide", fontsize=9)
    >>> m = measure(fig)
    >>> round(m.width), m.smallest.points, round(m.printed_points(), 1)
    (16, 9.0, 3.9)
    >>> plt.close(fig)
    """
    texts: dict[int, DrawnText] = {}
    with style():
        renderer = fig.canvas.get_renderer()
        draw_text = renderer.draw_text

        def record(gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if mtext is not None and id(mtext) not in texts:
                box = mtext.get_window_extent(renderer)
                texts[id(mtext)] = DrawnText(mtext.get_text(), float(prop.get_size_in_points()),
                                             tuple(float(v) / fig.dpi for v in box.extents))
            return draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

        renderer.draw_text = record
        try:
            fig.draw(renderer)
        finally:
            del renderer.draw_text
        if matplotlib.rcParams["savefig.bbox"] == "tight":
            pad = float(matplotlib.rcParams["savefig.pad_inches"])
            box = fig.get_tightbbox(renderer)
            width, height = box.width + 2 * pad, box.height + 2 * pad
        else:
            width, height = (float(v) for v in fig.get_size_inches())
    return Measurement(float(width), float(height), tuple(texts.values()))
