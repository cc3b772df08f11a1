"""The legend check: an entry whose colour no drawn artist has is named, whatever the artist
(bars, markers, error bars, images, a shaded panel); white or black entries pass."""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from recallscore_nb.render.figures import figure, style
from recallscore_nb.render.legends import drawn_colors, undrawn_legend_entries


def test_zero_height_bars_are_not_drawn_and_their_entry_is_named():
    """Issue 21: legends listed categories that have no bars."""
    with style():
        fig, ax = figure()
        ax.bar([0, 1], [2, 3], color="C0", label="drawn")
        ax.bar([0.4, 1.4], [0, 0], color="C1", label="all zero")
        ax.legend()
    assert undrawn_legend_entries(fig) == ["all zero"]


def test_markers_error_bars_images_and_shading_count_as_drawn():
    with style():
        fig, (left, right) = figure(1, 2)
        points = left.errorbar([0.5], [1], xerr=[[0.1], [0.1]], fmt="o", color="C2", label="mean")
        left.set_facecolor("#fbeaea")
        right.imshow(np.array([[[0.2, 0.4, 0.6]]]))
        fig.legend(handles=[points, Patch(facecolor="#fbeaea", label="shaded"),
                            Patch(color=(0.2, 0.4, 0.6), label="cell"),
                            Patch(facecolor="white", edgecolor="black", label="outline"),
                            Line2D([], [], color="C5", label="never drawn")])
    assert undrawn_legend_entries(fig) == ["never drawn"]
    assert drawn_colors(fig) >= {(0.2, 0.4, 0.6)}
