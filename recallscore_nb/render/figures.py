"""Figures: the shipped style, applied only while the package draws; figures made outside
pyplot; and their PNG, PDF and SVG bytes, the same on every run.

Importing this module (or any of the package) changes nothing of matplotlib's global state:
neither the backend nor ``rcParams``. :func:`style` applies matplotlib's defaults plus the
shipped style (never the user's ``matplotlibrc``) for the duration of a block: a figure is
made (:func:`figure`: a :class:`~matplotlib.figure.Figure` on its own Agg canvas, so no
display is needed and pyplot never shows it), drawn and rendered inside it, since text and
line properties are read when an artist is made and when it is drawn.
:func:`figure_bytes` renders a figure in one of :data:`FIGURE_FORMATS` with no dates or
software stamps; the caller writes the bytes (``io.files.write_file``). :func:`measure`
reports how a figure prints: its saved size and every text drawn, so a test can hold each
figure to the paper's text width (:data:`TEXT_WIDTH`) and smallest legible text
(:data:`MIN_POINTS`).

>>> with style():
...     fig, ax = figure(figsize=(2.0, 1.0))
...     _ = ax.plot([0, 1], [0, 1])
...     png = figure_bytes(fig, "png")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import contextlib
import io
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.style
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["style", "figure", "figure_bytes", "stable_svg_ids", "measure", "DrawnText",
           "Measurement", "FIGURE_FORMATS", "STYLE_FILE", "TEXT_WIDTH", "FIGURE_WIDTH",
           "MIN_POINTS"]

STYLE_FILE = Path(__file__).resolve().parents[1] / "data" / "recallscore.mplstyle"
"""The shipped style, among the package data (``render`` imports only ``core``, so it finds the
file itself, where :data:`recallscore_nb.io.data.DATA_DIR` does)."""
FIGURE_FORMATS = ("png", "pdf", "svg")
TEXT_WIDTH = 7.0
"""The paper's text width in inches: the widest a figure prints without being scaled down."""
FIGURE_WIDTH = 6.9
"""The width to give a full-width figure: saved (a tight box, padded by 0.05 in) it is a
little under :data:`TEXT_WIDTH` wide."""
MIN_POINTS = 7.0
"""The smallest text size, in points, a figure may print at :data:`TEXT_WIDTH`."""
_SUBPLOTS = ("sharex", "sharey", "squeeze", "width_ratios", "height_ratios", "subplot_kw",
             "gridspec_kw")


@contextlib.contextmanager
def style() -> Iterator[None]:
    """matplotlib's defaults plus the shipped style, for the duration of the block; the
    settings before it are back afterwards, however the block ends."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.style.use(STYLE_FILE)
        yield


def figure(nrows: int = 1, ncols: int = 1, **kwargs):
    """A new figure and its axes, as ``pyplot.subplots`` makes them (the same keywords), but
    outside pyplot: a :class:`~matplotlib.figure.Figure` on its own Agg canvas. Make it and
    draw on it inside :func:`style`."""
    grid = {key: kwargs.pop(key) for key in _SUBPLOTS if key in kwargs}
    fig = Figure(**kwargs)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **grid)


def _metadata(fmt: str, description: str) -> dict[str, str | None]:
    if fmt == "png":
        return {"Software": None, "Description": description}
    if fmt == "pdf":
        return {"Creator": None, "Producer": None, "CreationDate": None, "ModDate": None,
                "Subject": description}
    return {"Creator": None, "Date": None, "Format": None, "Type": None,
            "Description": description}


def figure_bytes(fig, fmt: str, *, description: str = "") -> bytes:
    """``fig`` rendered as ``fmt`` (one of :data:`FIGURE_FORMATS`) under the shipped style.

    ``description`` (scorer signatures, input hashes) goes into the file's metadata; no date
    and no software version does, so the same figure gives the same bytes.
    """
    if fmt not in FIGURE_FORMATS:
        raise ValueError(f"'fmt' must be one of {', '.join(FIGURE_FORMATS)} (got {fmt!r})")
    buffer = io.BytesIO()
    with style():
        fig.savefig(buffer, format=fmt, metadata=_metadata(fmt, description))
    return stable_svg_ids(buffer.getvalue()) if fmt == "svg" else buffer.getvalue()


_SVG_ID = re.compile(rb"(?<=[\"#])(p|m|image)([0-9a-f]{10})(?=[\")])")


def stable_svg_ids(svg: bytes) -> bytes:
    """The SVG with matplotlib's hashed ids (of clip paths, markers and images: a hash of
    their geometry, whose last bits of float noise differ from run to run) numbered in order
    of first appearance instead: the same drawing gives the same bytes.

    >>> stable_svg_ids(b'<g clip-path="url(#p6931f99629)"/><clipPath id="p6931f99629"/>')
    b'<g clip-path="url(#p0000000000)"/><clipPath id="p0000000000"/>'
    """
    numbers: dict[bytes, bytes] = {}

    def number(found: re.Match) -> bytes:
        key = found.group(0)
        if key not in numbers:
            numbers[key] = found.group(1) + b"%010d" % len(numbers)
        return numbers[key]
    return _SVG_ID.sub(number, svg)


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
    """Draw ``fig`` under the shipped style as :func:`figure_bytes` does and measure it.

    The size is the saved one (with ``savefig.bbox: tight``, the tight bounding box plus its
    padding); the texts are those the renderer actually draws (titles, labels, tick labels,
    legend texts, annotations), not the artists that stay hidden.

    >>> with style():
    ...     fig, ax = figure(figsize=(16.0, 4.0), layout="constrained")
    ...     ax.set_axis_off()
    ...     _ = ax.set_title("wide", fontsize=9)
    >>> m = measure(fig)
    >>> round(m.width), m.smallest.points, round(m.printed_points(), 1)
    (16, 9.0, 3.9)
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
