"""Legends that name only what a figure draws: a check for the figures' tests.

A legend entry stands for artists of its colour. :func:`undrawn_legend_entries` lists the
entries of a figure's legends whose colours appear on no artist drawn in its axes (bars and
other patches with an area, markers and lines with data, images' cells, a panel's shaded
background), so a test can hold every figure to legends only for what is drawn: a category
without a bar has no entry.

>>> from recallscore_nb.render.figures import figure, style
>>> from matplotlib.patches import Patch
>>> with style():
...     fig, ax = figure()
...     _ = ax.bar([0, 1], [1, 2], color="C0")
...     _ = ax.legend(handles=[Patch(color="C0", label="drawn"), Patch(color="C1", label="none")])
>>> undrawn_legend_entries(fig)
['none']
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba

__all__ = ["undrawn_legend_entries", "drawn_colors"]

_IGNORED = {(1.0, 1.0, 1.0), (0.0, 0.0, 0.0)}
"""White and black: a handle's outline or a marker's edge, never what tells entries apart."""


def _key(color) -> tuple | None:
    """A colour as compared (RGB to 1/255), None for no colour or a transparent one."""
    if color is None or (isinstance(color, str) and color == "none"):
        return None
    rgba = to_rgba(color)
    if rgba[3] == 0:
        return None
    return tuple(round(v * 255) / 255 for v in rgba[:3])


def _colors(values) -> set:
    values = np.atleast_2d(np.asarray(values, dtype=float)) if len(values) else []
    return {k for k in (_key(tuple(v)) for v in values) if k is not None}


def _image_colors(image) -> set:
    array = image.get_array()
    if array is None:
        return set()
    rgba = array if array.ndim == 3 else image.to_rgba(array)
    rgba = np.asarray(rgba, dtype=float)
    if rgba.max() > 1:  # 8-bit colours
        rgba = rgba / 255
    return _colors(np.unique(rgba.reshape(-1, rgba.shape[-1])[:, :3], axis=0))


def drawn_colors(fig) -> set:
    """The colours of every artist drawn in ``fig``'s visible axes."""
    found = set()
    for ax in (a for a in fig.axes if a.get_visible()):
        found.add(_key(ax.get_facecolor()))
        for patch in ax.patches:
            box = patch.get_bbox()
            if patch.get_visible() and box.width != 0 and box.height != 0:
                found |= {_key(patch.get_facecolor()), _key(patch.get_edgecolor())}
        for collection in ax.collections:
            if collection.get_visible() and (len(collection.get_offsets()) or collection.get_paths()):
                found |= _colors(collection.get_facecolors()) | _colors(collection.get_edgecolors())
        for line in ax.lines:
            if line.get_visible() and len(line.get_xdata()):
                found |= {_key(line.get_color()), _key(line.get_markerfacecolor())}
        for image in ax.images:
            found |= _image_colors(image)
    return found - {None}


def _handle_colors(handle) -> set:
    if hasattr(handle, "patches") and handle.patches:  # a bar container
        handle = handle.patches[0]
    elif hasattr(handle, "lines") and handle.lines and handle.lines[0] is not None:
        handle = handle.lines[0]  # an error bar container: its markers' line
    colors = set()
    for getter in ("get_facecolor", "get_edgecolor", "get_color", "get_markerfacecolor"):
        value = getattr(handle, getter, lambda: None)()
        if value is None or isinstance(value, str):
            colors.add(_key(value))
            continue
        array = np.asarray(value, dtype=float)
        if array.ndim == 2:  # a collection's colours, one a row
            colors |= _colors(array)
        elif array.size in (3, 4):
            colors.add(_key(tuple(array)))
    return colors - {None} - _IGNORED


def undrawn_legend_entries(fig) -> list[str]:
    """The labels of legend entries whose colours no drawn artist of ``fig`` has (an entry
    drawn in white or black only is taken as drawn)."""
    drawn = drawn_colors(fig)
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    missing = []
    for legend in legends:
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            colors = _handle_colors(handle)
            if colors and not colors & drawn:
                missing.append(text.get_text())
    return missing
