"""Notebook 08's figures: rules against human judges. Each ``*_figure`` draws on a figure of
its own under the shipped style and returns it; the caller writes its bytes. Tables with a
``set`` column (several judged sets) get one panel per set, in order.

- :func:`accuracy_figure`: each system's accuracy under each rule and each judge, with its
  interval (the rules' under-credit of long answers made visible).
- :func:`ranking_figure`: the systems' rank under each measure (a rank chart; systems tied
  under a measure share its rank and are drawn as open markers).
- :func:`kappa_figure`: each rule's and judge's Cohen's kappa beside the annotators', like
  with like: against the majority of the other annotators, the annotators' own the ceiling;
  a set with one verdict per answer has no ceiling, and its panel says so.
- :func:`categories_figure`: the disagreements per rule, by category.
- :func:`step_ablation_figure`: what each step and guard of the ``equivalent`` rule fixes and
  breaks, against people.
- :func:`gaming_figure`: the gaming audit, the share of each family's answers each rule
  accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib
import numpy as np
from matplotlib.ticker import MaxNLocator
import pandas as pd

from ..core.exact import exact_mean
from .figures import FIGURE_WIDTH, figure, style

__all__ = ["accuracy_figure", "ranking_figure", "kappa_figure", "categories_figure",
           "step_ablation_figure", "gaming_figure"]


def _by_set(table: pd.DataFrame) -> list[tuple[str | None, pd.DataFrame]]:
    if "set" not in table.columns:
        return [(None, table)]
    return [(name, table[table["set"] == name]) for name in pd.unique(table["set"])]


def _panels(parts, heights, width=FIGURE_WIDTH):
    """A figure of one panel per set, stacked, each as tall as it needs."""
    fig, axes = figure(len(parts), 1, figsize=(width, sum(heights)), squeeze=False,
                       layout="constrained", height_ratios=heights)
    return fig, [row[0] for row in axes]


def accuracy_figure(systems: pd.DataFrame, measures: Mapping[str, str], judges: Sequence[str]):
    """Each system's accuracy (``mean`` of ``systems``) under each rule (``measures``:
    column -> label) and each judge, as a grid: one row per system, one column per measure,
    the value written in its cell; one panel per set (the intervals are in the table)."""
    parts = _by_set(systems)
    columns = list(measures) + [j for j in judges if j not in measures]
    heights = [0.2 * len(pd.unique(t["system"])) + 0.45 for _, t in parts]
    heights[-1] += 1.2  # the measures' names under the last panel
    with style():
        fig, axes = _panels(parts, heights)
        for ax, (name, table) in zip(axes, parts):
            names = list(pd.unique(table["system"]))
            wide = table.pivot(index="system", columns="measure", values="mean").reindex(
                index=names, columns=columns)
            values = wide.to_numpy(dtype=float)
            ax.imshow(values, cmap="Blues", vmin=0, vmax=1.4, aspect="auto",
                      interpolation="nearest")
            for (i, j), v in np.ndenumerate(values):
                if not np.isnan(v):
                    ax.text(j, i, f"{v:.2f}".lstrip("0"), ha="center", va="center",
                            fontsize=7)
            ax.set_yticks(np.arange(len(names)), names)
            ax.set_xticks(np.arange(len(columns)),
                          [measures.get(c, c) for c in columns] if ax is axes[-1] else [],
                          rotation=90)
            for j in range(len(list(measures)) - 1, len(columns) - 1):
                if columns[j] in measures and columns[j + 1] not in measures:
                    ax.axvline(j + 0.5, color="0.3", linewidth=1)
            ax.set_title(name or "", loc="left")
        fig.suptitle("Each system's accuracy under every rule (left of the line) and judge")
    return fig


def ranking_figure(ranks: pd.DataFrame, measures: Mapping[str, str]):
    """A rank chart per set: each system's rank (1 = best) under each measure (``ranks``:
    :func:`~recallscore_nb.analysis.meta_evaluation.rank_table`; ``measures``: column ->
    label, left to right). Systems tied under a measure share its rank, drawn as open
    markers. A set of one system has nothing to rank: it has no panel (unless no set has
    two)."""
    parts = _by_set(ranks)
    ranked = [(name, t) for name, t in parts if t["system"].nunique() >= 2]
    parts = ranked or parts
    heights = [0.16 * len(pd.unique(t["system"])) + 1.45 for _, t in parts]
    with style():
        fig, axes = _panels(parts, heights)
        for ax, (name, table) in zip(axes, parts):
            rank = table.pivot(index="system", columns="measure", values="rank")
            tied = table.pivot(index="system", columns="measure", values="tied")
            columns = [m for m in measures if m in rank.columns]
            order = list(pd.unique(table["system"]))
            rank, tied = rank.reindex(order)[columns], tied.reindex(order)[columns]
            x = np.arange(len(columns))
            for k, system in enumerate(order):
                values = rank.loc[system].to_numpy(dtype=float)
                open_ = tied.loc[system].to_numpy(dtype=bool)
                color = f"C{k}" if len(order) <= 10 else matplotlib.colormaps["tab20"](k % 20)
                ax.plot(x, values, linewidth=1.1, color=color, label=system)
                ax.plot(x[~open_], values[~open_], "o", markersize=4, color=color)
                ax.plot(x[open_], values[open_], "o", markersize=5, color=color,
                        markerfacecolor="white")
            ax.set_xticks(x, [measures[c] for c in columns], rotation=90)
            ax.set_yticks(np.arange(1, len(order) + 1))
            ax.invert_yaxis()
            ax.set_ylabel("rank (1 = best)")
            ax.grid(axis="y", linewidth=0.4, alpha=0.5)
            ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=7,
                      ncols=1 + len(order) // 7)
            ax.set_title(name or "", loc="left")
        fig.suptitle("System ranking under each measure (open markers: tied systems, "
                     "sharing a rank)")
    return fig


def kappa_figure(agreement: pd.DataFrame, panel: pd.DataFrame | None,
                 measures: Mapping[str, str], reference: str):
    """Per set: with two annotators or more, each rule's and judge's Cohen's kappa against
    the majority of the other annotators (averaged over the annotator left out), beside each
    annotator's against the majority of the others (grey: the ceiling); with fewer, each
    rule's kappa against ``reference`` with its interval, and no ceiling."""
    parts = _by_set(agreement)
    panels = dict(_by_set(panel)) if panel is not None and len(panel) else {}
    heights = [0.16 * (len(panels[name]) if name in panels else len(measures)) + 0.6
               for name, _ in parts]
    low = min([-0.1] + [float(np.nanmin(p["kappa_majority_of_others"])) - 0.05
                        for p in panels.values()])
    with style():
        fig, axes = _panels(parts, heights)
        for ax, (name, table) in zip(axes, parts):
            mine = panels.get(name)
            if mine is not None and len(mine):
                _like_with_like(ax, mine, measures)
                title = f"{name + ': ' if name else ''}against the other annotators' " \
                        "majority; dashed: the annotators' own (the ceiling)"
            else:
                _against_reference(ax, table, measures, reference)
                title = f"{name + ': ' if name else ''}against {reference}: one verdict per " \
                        "answer, no ceiling"
            ax.set_xlim(low, 1.02)
            ax.grid(axis="x", linewidth=0.4, alpha=0.5)
            ax.set_title(title, loc="left", fontsize=7.5)
        axes[-1].set_xlabel("Cohen's kappa")
        fig.suptitle("Agreement with people, like with like")
    return fig


def _like_with_like(ax, panel: pd.DataFrame, measures: Mapping[str, str]) -> None:
    rows = panel.reset_index(drop=True)
    y = np.arange(len(rows))[::-1]
    colors = {"annotator": "0.55", "rule": "C0", "judge": "C1"}
    for kind, color in colors.items():
        mask = (rows["kind"] == kind).to_numpy()
        ax.plot(rows["kappa_majority_of_others"].to_numpy(dtype=float)[mask], y[mask], "o",
                color=color, markersize=4, label=kind)
    annotators = rows.loc[rows["kind"] == "annotator", "kappa_majority_of_others"]
    ceiling = exact_mean(annotators.dropna())
    ax.axvline(ceiling, color="0.55", linewidth=0.8, linestyle="--")
    ax.set_yticks(y, [measures.get(r, r) for r in rows["rater"]])
    ax.legend(loc="lower left", fontsize=7)


def _against_reference(ax, table: pd.DataFrame, measures: Mapping[str, str],
                       reference: str) -> None:
    rows = table[table["judge"] == reference].set_index("rule").reindex(
        [m for m in measures if m in set(table["rule"])])
    y = np.arange(len(rows))[::-1]
    k, lo, hi = (rows[c].to_numpy(dtype=float) for c in ("kappa", "kappa_low", "kappa_high"))
    ax.errorbar(k, y, xerr=[np.nan_to_num(k - lo), np.nan_to_num(hi - k)], fmt="o",
                color="C0", markersize=4, capsize=2, linewidth=1)
    ax.set_yticks(y, [measures[r] for r in rows.index])


def categories_figure(disagreements: pd.DataFrame, measures: Mapping[str, str],
                      categories: Sequence[str]):
    """Stacked bars per set: per rule, how many attempts it judges otherwise than the
    reference judge, by category; more than two sets in two columns of panels."""
    parts = _by_set(disagreements)
    columns = 2 if len(parts) > 2 else 1
    rows = -(-len(parts) // columns)
    labelled: set[str] = set()  # each category named once, where it first has a bar
    with style():
        fig, grid = figure(rows, columns, figsize=(FIGURE_WIDTH, rows * (0.25 * len(measures)
                                                                         + 0.9)),
                           squeeze=False, layout="constrained", sharey=True)
        axes = [ax for row in grid for ax in row]
        for ax in axes[len(parts):]:
            ax.set_axis_off()
        for ax, (name, table) in zip(axes, parts):
            counts = (table.groupby(["rule", "category"]).size().unstack(fill_value=0)
                      .reindex(index=list(measures), columns=list(categories), fill_value=0))
            y = np.arange(len(counts))[::-1]
            left = np.zeros(len(counts))
            for k, category in enumerate(categories):
                values = counts[category].to_numpy(dtype=float)
                drawn = values.any() and category not in labelled
                labelled |= {category} if drawn else set()
                ax.barh(y, values, left=left, color=f"C{k}", height=0.6,
                        label=category if drawn else None)
                left += values
            ax.set_yticks(y, [measures[r] for r in counts.index])
            ax.set_title(name or "", loc="left")
        for ax in axes[len(parts) - columns:len(parts)]:
            ax.set_xlabel("attempts where the rule and the reference\njudge disagree")
        fig.legend(loc="outside lower center", ncols=2, fontsize=7)
        fig.suptitle("Disagreements with the reference judge, by category")
    return fig


def step_ablation_figure(ablation: pd.DataFrame):
    """What each step and guard of the ``equivalent`` rule does against people, one panel
    per set side by side: the verdicts it fixes (right) and breaks (left); a guard off by
    default is drawn as it would be if switched on."""
    rows = ablation[ablation["kind"] != ""]
    parts = _by_set(rows)
    elements = list(pd.unique(rows["element"]))
    with style():
        fig, axes = figure(1, len(parts), figsize=(FIGURE_WIDTH, 0.17 * len(elements) + 1.3),
                           squeeze=False, sharey=True, layout="constrained")
        axes = list(axes[0])
        y = np.arange(len(elements))[::-1]
        for ax, (name, table) in zip(axes, parts):
            table = table.set_index("element").reindex(elements)
            ax.barh(y, table["fixed"].to_numpy(dtype=float), color="C2", height=0.6,
                    label="fixed" if ax is axes[0] else None)
            ax.barh(y, -table["broken"].to_numpy(dtype=float), color="C3", height=0.6,
                    label="broken" if ax is axes[0] else None)
            ax.axvline(0, color="0.3", linewidth=0.6)
            ax.set_title(name or "", loc="left")
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4, min_n_ticks=3))
        first = rows.drop_duplicates("element").set_index("element")
        axes[0].set_yticks(y, [f"{e} (guard, off)" if first.loc[e, "kind"] == "guard"
                               and first.loc[e, "default"] == "off" else e for e in elements])
        fig.legend(loc="outside lower center", ncols=2, fontsize=7)
        fig.suptitle("The equivalent rule's steps and guards against people: the verdicts "
                     "each fixes and breaks")
    return fig


def gaming_figure(shares: pd.DataFrame):
    """The gaming audit as a grid per set: one row per measure, one column per gaming
    family, the share of the family's answers the measure accepts written in its cell, in
    percent (``shares``: :data:`~recallscore_nb.analysis.gaming_audit.SHARE_COLUMNS`,
    with ``set``). Every answer is one no person would accept: a cell above zero is a way
    to game the rule."""
    parts = _by_set(shares)
    rules = list(pd.unique(shares["rule"]))
    families = list(pd.unique(shares["family"]))
    heights = [0.2 * len(rules) + 0.45 for _ in parts]
    heights[-1] += 0.8  # the families' names under the last panel
    with style():
        fig, axes = _panels(parts, heights)
        for ax, (name, table) in zip(axes, parts):
            wide = table.pivot(index="rule", columns="family", values="share").reindex(
                index=rules, columns=families)
            values = wide.to_numpy(dtype=float) * 100
            ax.imshow(values, cmap="Reds", vmin=0, vmax=140, aspect="auto",
                      interpolation="nearest")
            for (i, j), v in np.ndenumerate(values):
                if not np.isnan(v):
                    ax.text(j, i, f"{v:.0f}" if v >= 10 or v == 0 else f"{v:.1f}",
                            ha="center", va="center", fontsize=7)
            ax.set_yticks(np.arange(len(rules)), rules)
            ax.set_xticks(np.arange(len(families)), families if ax is axes[-1] else [],
                          rotation=45, ha="right")
            ax.set_title(name or "", loc="left")
        fig.suptitle("Gaming answers each rule accepts, by family (percent; no person "
                     "accepts any)")
    return fig
