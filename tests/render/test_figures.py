"""The figure machinery: the page check (a figure's printed width and smallest text) can fail,
measure counts only what is drawn, and rendering gives the same bytes every time."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from recallscore_nb.render import figures
from recallscore_nb.render.figures import MIN_POINTS, TEXT_WIDTH, figure, measure, style
from tests.render.shipped import draw


def fits_the_page(m: figures.Measurement) -> bool:
    """At most TEXT_WIDTH wide, or wider with its smallest text still legible scaled down."""
    return m.printed_points(TEXT_WIDTH) >= MIN_POINTS


# --- the check itself can fail --------------------------------------------------------------
@pytest.mark.parametrize(("width", "points", "fits"), [
    (16.0, 9, False),  # the old 03 heatmap: 9 pt prints at 3.9 pt in a 7-in text width
    (9.5, 9, False),   # the old 05: 6.6 pt
    (6.9, 6, False),   # narrow enough, text too small
    (6.9, 7, True),
    (9.5, 10, True),   # wider, but its text is still 7.3 pt scaled down
])
def test_the_page_check_fails_on_a_wide_figure_or_small_text(width, points, fits):
    with style():
        fig, ax = figure(figsize=(width, 3.0), layout="constrained")
        ax.set_title("a title", fontsize=points)
        ax.tick_params(labelsize=points + 1)
        ax.set_xlabel("a label", fontsize=points + 1)
    m = measure(fig)
    plt.close(fig)
    assert m.width == pytest.approx(width, abs=0.05)  # as saved: tight, plus 0.05-in padding
    assert m.smallest.points == points and m.smallest.text == "a title"
    assert fits_the_page(m) is fits


def test_measure_counts_only_the_texts_drawn():
    with style():
        fig, ax = figure(figsize=(3.0, 2.0))
        ax.set_xlim(0, 1)
        ax.text(0.5, 0.5, "hidden", fontsize=2, visible=False)
        ax.text(0.5, 0.5, "", fontsize=2)
        ax.text(0.2, 0.2, "one")
        ax.text(0.25, 0.2, "two")
    m = measure(fig)
    plt.close(fig)
    assert "hidden" not in [t.text for t in m.texts]
    assert m.smallest.points == 8  # the shipped style's font size
    assert m.overlaps() == [("one", "two")]


def test_figures_are_byte_deterministic(tmp_path):
    for fmt in figures.FIGURE_FORMATS:
        first, second = (figures.figure_bytes(draw("02 facts", tmp_path), fmt, description="d")
                         for _ in "ab")
        assert first == second, fmt


def test_an_svg_is_the_same_bytes_when_only_its_hashed_ids_differ():
    """Issue 30's fourth set: the hashed clip-path id of an image in the gaming figure
    differed between two runs whose drawings did not (its geometry's last bits did)."""
    import re

    import numpy as np

    one = (b'<clipPath id="p6931f99629"/><g clip-path="url(#p6931f99629)"/>'
           b'<path id="m5ab9cfb885"/><use xlink:href="#m5ab9cfb885"/>')
    other = one.replace(b"6931f99629", b"3f857476a8").replace(b"5ab9cfb885", b"0123456789")
    assert figures.stable_svg_ids(one) == figures.stable_svg_ids(other)
    assert figures.stable_svg_ids(figures.stable_svg_ids(one)) == figures.stable_svg_ids(one)
    fig, ax = figure(figsize=(2, 2))
    ax.imshow(np.eye(2))
    svg = figures.figure_bytes(fig, "svg")
    plt.close(fig)
    ids = set(re.findall(rb'id="((?:p|m|image)[0-9a-f]{10})"', svg))
    assert ids and all(i.lstrip(b"pmimage").isdigit() for i in ids)
