"""Notebook 08's figures: rules against human judges. Each ``*_figure`` draws on a figure of
its own under the shipped style and returns it; the caller writes its bytes.

- :func:`accuracy_figure`: each system's accuracy under each rule and each judge, with its
  interval (the rules' under-credit of long answers made visible).
- :func:`ranking_figure`: the systems' rank under each measure (a rank chart).
- :func:`kappa_figure`: each rule's Cohen's kappa against the reference judge with its
  interval, beside the annotators' agreement with each other (the ceiling).
- :func:`categories_figure`: the disagreements per rule, by category.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .figures import FIGURE_WIDTH, figure, style

__all__ = ["accuracy_figure", "ranking_figure", "kappa_figure", "categories_figure"]


def accuracy_figure(systems: pd.DataFrame, measures: Mapping[str, str], judges: Sequence[str]):
    """One panel per system: its accuracy (``mean``, ``low``, ``high`` of ``systems``) under
    each rule (``measures``: column -> label, drawn in blue) and each judge (in orange)."""
    names = list(dict.fromkeys(systems["system"]))
    rows = list(measures) + [j for j in judges if j not in measures]
    labels = [measures.get(r, r) for r in rows]
    with style():
        fig, axes = figure(1, len(names), figsize=(FIGURE_WIDTH, 0.3 * len(rows) + 1.3),
                           sharey=True, layout="constrained", squeeze=False)
        for ax, system in zip(axes[0], names):
            table = systems[systems["system"] == system].set_index("measure").reindex(rows)
            y = np.arange(len(rows))[::-1]
            mean, low, high = (table[c].to_numpy(dtype=float) for c in ("mean", "low", "high"))
            judge = np.array([r in judges for r in rows])
            for mask, color, label in ((~judge, "C0", "rule"), (judge, "C1", "judge")):
                ax.errorbar(mean[mask], y[mask], xerr=[np.nan_to_num(mean - low)[mask],
                                                       np.nan_to_num(high - mean)[mask]],
                            fmt="o", color=color, markersize=3.5, capsize=2, linewidth=1,
                            label=label)
            ax.set_yticks(y, labels)
            ax.set_xlim(-0.05, 1.05)
            ax.set_title(system)
            ax.grid(axis="x", linewidth=0.4, alpha=0.5)
            ax.set_xlabel("accuracy")
        handles, texts = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, texts, loc="outside lower center", ncols=2)
        fig.suptitle("Accuracy per system under each rule and each judge, 95% item-bootstrap "
                     "interval")
    return fig


def ranking_figure(systems: pd.DataFrame, measures: Mapping[str, str]):
    """A rank chart: each system's rank (1 = best) under each measure (``measures``: column
    -> label, left to right), one line per system."""
    wide = systems.pivot(index="system", columns="measure", values="mean")
    columns = [m for m in measures if m in wide.columns]
    ranks = wide[columns].rank(ascending=False, method="min")
    with style():
        fig, ax = figure(figsize=(FIGURE_WIDTH, 0.35 * len(ranks) + 1.8), layout="constrained")
        x = np.arange(len(columns))
        for k, (system, row) in enumerate(ranks.iterrows()):
            ax.plot(x, row.to_numpy(), marker="o", markersize=4, linewidth=1.2,
                    color=f"C{k % 10}", label=system)
        ax.set_xticks(x, [measures[c] for c in columns], rotation=40, ha="right")
        ax.set_yticks(np.arange(1, len(ranks) + 1))
        ax.invert_yaxis()
        ax.set_ylabel("rank (1 = best)")
        ax.grid(axis="y", linewidth=0.4, alpha=0.5)
        handles, texts = ax.get_legend_handles_labels()
        fig.legend(handles, texts, loc="outside right upper", fontsize=7)
        ax.set_title("System ranking under each measure")
    return fig


def kappa_figure(agreement: pd.DataFrame, annotators: pd.DataFrame | None,
                 measures: Mapping[str, str], reference: str):
    """Each rule's Cohen's kappa against ``reference`` with its interval; the annotator pairs'
    kappa drawn as grey lines: the agreement people reach with each other, the ceiling."""
    rows = agreement[agreement["judge"] == reference].set_index("rule").reindex(
        [m for m in measures if m in set(agreement["rule"])])
    with style():
        fig, ax = figure(figsize=(FIGURE_WIDTH, 0.3 * len(rows) + 1.6), layout="constrained")
        y = np.arange(len(rows))[::-1]
        k, lo, hi = (rows[c].to_numpy(dtype=float) for c in ("kappa", "kappa_low", "kappa_high"))
        ax.errorbar(k, y, xerr=[np.nan_to_num(k - lo), np.nan_to_num(hi - k)], fmt="o",
                    color="C0", markersize=4, capsize=2, linewidth=1,
                    label=f"rule against {reference}")
        if annotators is not None:
            pairs = annotators[annotators["kappa"].notna()]
            for i, (judges, kappa) in enumerate(zip(pairs["judges"], pairs["kappa"])):
                ax.axvline(kappa, color="0.5", linewidth=0.8, linestyle=("--", ":", "-.")[i % 3],
                           label=f"annotators {judges.replace(',', ' & ')}")
        ax.set_yticks(y, [measures[r] for r in rows.index])
        ax.set_xlim(-1.05, 1.05)
        ax.set_xlabel("Cohen's kappa")
        ax.grid(axis="x", linewidth=0.4, alpha=0.5)
        handles, texts = ax.get_legend_handles_labels()
        fig.legend(handles, texts, loc="outside lower center", ncols=2, fontsize=7)
        ax.set_title(f"Agreement with {reference}, and among the annotators (the ceiling)")
    return fig


def categories_figure(disagreements: pd.DataFrame, measures: Mapping[str, str],
                      categories: Sequence[str]):
    """Stacked bars: per rule, how many attempts it judges otherwise than the reference
    judge, by category."""
    counts = (disagreements.groupby(["rule", "category"]).size().unstack(fill_value=0)
              .reindex(index=[m for m in measures], columns=list(categories), fill_value=0))
    with style():
        fig, ax = figure(figsize=(FIGURE_WIDTH, 0.3 * len(counts) + 1.8), layout="constrained")
        y = np.arange(len(counts))[::-1]
        left = np.zeros(len(counts))
        for k, category in enumerate(categories):
            values = counts[category].to_numpy(dtype=float)
            ax.barh(y, values, left=left, color=f"C{k}", label=category, height=0.6)
            left += values
        ax.set_yticks(y, [measures[r] for r in counts.index])
        ax.set_xlabel("attempts where the rule and the judge disagree")
        handles, texts = ax.get_legend_handles_labels()
        fig.legend(handles, texts, loc="outside lower center", ncols=2, fontsize=7)
        ax.set_title("Disagreements with the reference judge, by category")
    return fig
