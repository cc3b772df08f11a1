"""Notebook 05's figure: each system's mean score per rule with its bootstrap interval,
saturated rules shaded and their titles red.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from .figures import FIGURE_WIDTH, figure, style

__all__ = ["plot_intervals", "intervals_figure"]

_SATURATED_TITLE, _SATURATED_FACE = "C3", "#fbeaea"


def plot_intervals(ax, table: pd.DataFrame, *, controls: Sequence[str] = (),
                   confidence: float = 0.95) -> list:
    """Draw one rule's systems as points with interval whiskers, first system on top.

    ``table`` has ``system, mean, low, high``; rows whose system is in ``controls`` are drawn
    hollow and grey. Returns the two errorbar containers (systems, controls), labelled for a
    legend.
    """
    y = np.arange(len(table))[::-1]
    mean, low, high = (table[c].to_numpy(dtype=float) for c in ("mean", "low", "high"))
    is_control = table["system"].isin(list(controls)).to_numpy()
    artists = []
    for mask, kwargs in ((~is_control, {"color": "C0", "fmt": "o",
                                        "label": f"system: mean, {confidence:.0%} interval"}),
                         (is_control, {"color": "0.5", "fmt": "o", "mfc": "white",
                                       "label": "control"})):
        # a percentile interval need not hold the mean (a constant's mean can differ from
        # the constant in its last bit): a whisker is never negative
        xerr = [np.maximum(mean[mask] - low[mask], 0), np.maximum(high[mask] - mean[mask], 0)]
        artists.append(ax.errorbar(mean[mask], y[mask], xerr=xerr,
                                   capsize=2, markersize=4, linewidth=1, **kwargs))
    ax.set_yticks(y, table["system"].tolist())
    ax.set_xlim(-0.05, 1.05)
    ax.grid(axis="x", linewidth=0.4, alpha=0.5)
    return artists


def intervals_figure(table: pd.DataFrame, saturated: Mapping[str, bool],
                     measures: Mapping[str, str], *, controls: Sequence[str] = (),
                     confidence: float = 0.95, threshold: float = 0.95, resamples: int,
                     seed: int):
    """Notebook 05's figure: one panel per rule (``measures``: column -> label), each system's
    mean with its interval; saturated rules shaded, their titles red; a legend below the
    panels says what the markers and the shading mean."""
    with style():
        columns = 3 if len(measures) <= 9 else 4  # three rows at most: no page tall
        rows = max(1, -(-len(measures) // columns))
        per_row = 0.75 + 0.13 * table["system"].nunique()  # the panel's rows, its title, its ticks
        fig, axes = figure(rows, columns, figsize=(FIGURE_WIDTH, 0.9 + per_row * rows),
                           sharex=True, sharey=True, layout="constrained", squeeze=False)
        for ax in axes.flat[len(measures):]:
            ax.set_visible(False)
        handles = {}
        for ax, (rule, label) in zip(axes.flat, measures.items()):
            for container in plot_intervals(ax, table[table["rule"] == rule],
                                            controls=controls, confidence=confidence):
                if len(container.lines[0].get_xdata()):
                    handles.setdefault(container.get_label(), container)
            is_saturated = bool(saturated.get(rule, False))
            ax.set_title(label + ("\nsaturated" if is_saturated else "\n "),
                         color=_SATURATED_TITLE if is_saturated else "black",
                         fontsize=9 if columns == 3 else 8)
            if is_saturated:
                ax.set_facecolor(_SATURATED_FACE)
        if any(saturated.values()):
            label = (f"saturated rule (red title, shaded): its two best systems\nboth reach "
                     f"{threshold:g} and their intervals overlap")
            handles[label] = Patch(facecolor=_SATURATED_FACE, edgecolor=_SATURATED_TITLE,
                                   linewidth=0.8)
        for ax in axes.flat[:len(measures)]:
            ax.xaxis.set_tick_params(labelbottom=True)  # every panel reads its own scores
            ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0", ".25", ".5", ".75", "1"])
        for ax in axes.flat[max(0, len(measures) - columns):len(measures)]:
            ax.set_xlabel("mean score")  # the lowest panel of each column
        fig.legend(list(handles.values()), list(handles), loc="outside lower center",
                   ncols=min(len(handles), 2))
        fig.suptitle(f"Mean score per system, {confidence:.0%} percentile bootstrap interval\n"
                     f"({resamples} resamples of attempts, seed {seed})")
    return fig
