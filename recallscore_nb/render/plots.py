"""Every figure of the workbook: ``plot_*(ax, data, …)`` functions draw on the axes they are
given and return the artists; ``*_figure(data, …)`` functions make a whole figure, drawn under
the shipped style (:func:`~recallscore_nb.render.figures.style`), for the caller to render
(:func:`~recallscore_nb.render.figures.figure_bytes`) and write.

The heatmap-like figures (the ablation's verdicts, the rules' matrix, the facts' statuses) draw
their cells through one helper, :func:`heatmap`. The data come prepared: tables from the
notebooks' chapters and :mod:`recallscore_nb.analysis`, whose modules this one does not import.
Notebook 05's intervals (:mod:`~recallscore_nb.render.interval_plots`) and notebook 06's suite
catalogue (:mod:`~recallscore_nb.render.suite_plots`) have modules of their own; their names
are given here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from ..core import rules as registry
from ..core.rules import Checklist, NormalizedMatch
from ..core.status import STATUSES
from .figures import FIGURE_WIDTH, figure, style

__all__ = [
    "PASS_COLOR", "FAIL_COLOR", "FLIP_COLOR", "STATUS_COLORS",
    "matrix_columns", "rule_labels", "VERDICT_TITLES",
    "heatmap",
    "plot_ablation", "ablation_handles", "ablation_figure",
    "plot_rule_matrix", "rule_matrix_figure", "plot_label_bars", "label_figure",
    "plot_facts_present", "facts_present_figure",
    "plot_fact_status", "fact_status_figure",
]

PASS_COLOR = "#5ab4ac"
FAIL_COLOR = "#ebdcc0"
FLIP_COLOR = "#b2182b"
STATUS_COLORS = {
    "present": "#a6dba0",
    "missing": "#e0e0e0",
    "contradicted": "#d6604d",
    "negated": "#762a83",
    "conflicting": "#f1a340",
}
"""The colour of each fact status, distinct in hue and lightness from each other and from the
checklist's pass and fail."""
_DARK = ("contradicted", "negated")  # statuses whose cells take white text
_SCORE_COLOR = "#9e9ac8"
_SCORE_LOW = "#f4f4f4"  # a score of 0: still a cell against the white grid
_COMPLETE_COLOR = "#01665e"
_INCOMPLETE_COLOR = "#bf812d"
_TOTAL_COLOR = "#444444"
_F1_COLOR = "#9e9ac8"


def _counted(cls) -> tuple[str, str] | None:
    """The (count, bound) columns a rule's verdict cell reads as ``count/bound``, if it has
    them (the checklist: facts present of facts total)."""
    for column in cls.columns:
        if column.at_most is not None:
            return column.name, column.at_most
    return None


def matrix_columns() -> dict[str, str]:
    """The rules' matrix: each rule's own verdict column and its label, in the registry's
    order (a verdict its cells read as a count: the rule's name over what it counts).

    >>> matrix_columns()[Checklist.column]
    'checklist\\n(facts present)'
    """
    out = {}
    for cls in registry.RULES.values():
        verdict = cls.measures[0]
        counted = _counted(cls)
        out[verdict.column] = (verdict.short if counted is None else
                               f"{cls.name}\n({counted[0].replace('_', ' ')})")
    return out


def rule_labels() -> dict[str, str]:
    """A measure's name -> its short label (under its bars)."""
    return {m.name: m.short for m in registry.measures()}


VERDICT_TITLES = {NormalizedMatch.column: "normalized match",
                  Checklist.column: "checklist full match\n(\u2713/\u2717, facts present of {total})",
                  "schema_full_match": "schema-aware checklist\n(all facts present)"}
"""Each ablation verdict's title in its heatmap (``{total}``: the benchmark's facts total)."""


# --- the heatmap helper ------------------------------------------------------------------------
def heatmap(ax, rgb: np.ndarray, cells: Iterable[tuple[int, int, str, dict]], *,
            columns: Sequence[str], rows: Sequence[str] | None,
            top: bool = False, rotation: float | None = None) -> list:
    """Draw ``rgb`` (rows × columns × 3) as cells, a text in each, separated by white lines.

    ``cells`` gives ``(row, column, text, text properties)`` in the order to draw them;
    ``columns`` and ``rows`` label the axes (``rows`` None leaves the y ticks to a shared
    axes), the column labels on ``top`` when asked and turned by ``rotation``. Ticks have no
    length and the spines are hidden. Returns the image and the texts.
    """
    artists = [ax.imshow(rgb, aspect="auto", interpolation="nearest")]
    for i, j, text, props in cells:
        artists.append(ax.text(j, i, text, ha="center", va="center", **props))
    n_rows, n_cols = rgb.shape[:2]
    ax.set_xticks(range(n_cols), list(columns), **({} if rotation is None else
                                                   {"rotation": rotation}))
    if top:
        ax.xaxis.tick_top()
    if rows is not None:
        ax.set_yticks(range(n_rows), list(rows))
    ax.set_xticks(np.arange(-0.5, n_cols, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, n_rows, 1), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="both", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return artists


def _passes_rgb(passes: np.ndarray) -> np.ndarray:
    return np.where(np.asarray(passes, dtype=bool)[..., None], to_rgb(PASS_COLOR),
                    to_rgb(FAIL_COLOR))


# --- notebook 03: the normalization ablation ---------------------------------------------------
def _ablation_title(panel) -> str:
    totals = list(panel.totals)
    return VERDICT_TITLES.get(panel.verdict, panel.verdict).format(
        total=totals[0] if len(totals) == 1 else "total")


def _ablation_label(panel, i: int, j: int, ok: bool) -> str:
    mark = "\u2713" if ok else "\u2717"
    if panel.verdict == Checklist.column:  # the verdict as the other panels read it, then the count
        present = panel.present.iat[i, j]
        return (f"{mark}{present}" if len(panel.totals) == 1
                else f"{mark}{present}/{panel.total.iat[i, j]}")
    return mark


def plot_ablation(ax, panel, *, baseline: str = "seed", legend: bool = True) -> list:
    """Draw one verdict of the ablation as a rows × pipelines heatmap, flipped cells outlined.

    ``panel`` is :func:`recallscore_nb.analysis.ablation.heatmap_panel`'s. Cells are coloured
    pass or fail and read ``✓``/``✗`` (the checklist's followed by the number of facts
    present, its title the facts total); a cell whose verdict differs from ``baseline`` is outlined in
    red. The pipelines label the columns upright (read bottom to top). With ``legend``, a
    legend naming what this heatmap draws (:func:`ablation_handles`) sits to the right of the
    axes. Returns the artists drawn: the image, the cell texts, the outlines, the legend.
    """
    passes = panel.passes.astype(bool)
    flipped = panel.flipped
    n_rows, n_cols = passes.shape
    cells = []
    for i in range(n_rows):
        for j in range(n_cols):
            ok = bool(passes.iat[i, j])
            cells.append((i, j, _ablation_label(panel, i, j, ok),
                          {"fontsize": 7, "color": "black" if ok else "#555555"}))
    rows = [f"{i}  {c}" if c else str(i) for i, c in
            ((row_id, panel.conditions.get(row_id)) for row_id in passes.index)]
    artists = heatmap(ax, _passes_rgb(passes.to_numpy()), cells,
                      columns=[str(c) for c in passes.columns], rows=rows, rotation=90)
    for i in range(n_rows):
        for j in range(n_cols):
            if flipped.iat[i, j]:
                artists.append(ax.add_patch(Rectangle(
                    (j - 0.4, i - 0.4), 0.8, 0.8, fill=False, edgecolor=FLIP_COLOR,
                    linewidth=1.5)))
    ax.set_xlabel("normalization pipeline")
    ax.set_title(_ablation_title(panel))
    if legend:
        artists.append(ax.legend(handles=ablation_handles([panel], baseline=baseline),
                                 loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False))
    return artists


def ablation_handles(panels, *, baseline: str = "seed") -> list[Patch]:
    """Legend entries for what the heatmaps of ``panels`` draw: pass and fail cells, and the
    flip outline, each only when some cell shows it.

    >>> class Panel:
    ...     passes = pd.DataFrame({"seed": [True], "x": [True]})
    ...     flipped = pd.DataFrame({"seed": [False], "x": [False]})
    >>> [h.get_label() for h in ablation_handles([Panel()])]
    ['pass']
    """
    passes = [p.passes.astype(bool).to_numpy() for p in panels]
    flipped = [p.flipped.to_numpy() for p in panels]
    entries = [
        (any(p.any() for p in passes), {"facecolor": PASS_COLOR, "label": "pass"}),
        (any((~p).any() for p in passes), {"facecolor": FAIL_COLOR, "label": "fail"}),
        (any(f.any() for f in flipped), {"facecolor": "white", "edgecolor": FLIP_COLOR,
                                         "linewidth": 2.0, "label": f"flipped vs {baseline}"}),
    ]
    return [Patch(**kwargs) for drawn, kwargs in entries if drawn]


def _pipeline_key(pipelines: pd.DataFrame) -> str:
    """What each pipeline changes, as a key under the heatmaps (``name: change``, a few a
    line)."""
    entries = [f"{r.pipeline}: {r.change}" for r in pipelines.itertuples(index=False)]
    lines = ["    ".join(entries[i:i + 2]) for i in range(0, len(entries), 2)]
    return "\n".join(lines)


def ablation_figure(panels, *, baseline: str = "seed", pipelines: pd.DataFrame | None = None):
    """The ablation's heatmaps, one panel per verdict side by side, the legend below them,
    and, given ``pipelines`` (:func:`~recallscore_nb.analysis.ablation.ablation_pipelines`'s
    table: ``pipeline``, ``change``), what each pipeline changes, so its name is explained
    in the figure itself (the legend's title)."""
    n_rows = max((len(p.passes) for p in panels), default=0)
    key = "" if pipelines is None else _pipeline_key(pipelines)
    height = 1.9 + 0.24 * n_rows + 0.15 * (key.count("\n") + 1 if key else 0)
    with style():
        fig, axes = figure(1, len(panels), figsize=(FIGURE_WIDTH, height),
                           sharey=True, layout="constrained")
        for ax, panel in zip(np.atleast_1d(axes), panels):
            plot_ablation(ax, panel, baseline=baseline, legend=False)
            ax.set_xlabel("pipeline")
        legend = fig.legend(handles=ablation_handles(panels, baseline=baseline),
                            loc="outside lower center", ncols=3,
                            **({"title": key, "title_fontsize": 7} if key else {}))
        if key:
            legend.get_title().set_linespacing(1.4)
        fig.suptitle("Normalization is the scorer: verdicts under each pipeline, "
                     f"flips relative to {baseline}")
    return fig


# --- notebook 02: the rules' verdicts --------------------------------------------------------
def _variant_labels(table: pd.DataFrame) -> list[str]:
    conditions = table["condition"] if "condition" in table else [None] * len(table)
    return [f"{i}  {c}" if isinstance(c, str) and c else str(i)
            for i, c in zip(table["id"], conditions)]


def plot_rule_matrix(ax, matrix: pd.DataFrame) -> list:
    """Draw variants × rules: binary cells coloured pass/fail (a verdict read as a count, as
    the checklist's, shows it: ``3/4`` facts present), a graded score as its value on a
    white-to-lavender shade. The legend below names pass and fail only as they occur.

    ``matrix`` has ``id, condition``, the :func:`matrix_columns` and the columns the counted
    verdicts read (``3/4``). Returns the artists drawn: the image, the cell texts, the legend.
    """
    labels = matrix_columns()
    columns = list(labels)
    counted = {cls.column: _counted(cls) for cls in registry.RULES.values()}
    graded = [registry.measure(c) for c in columns if not registry.measure(c).binary]
    n_rows, n_cols = len(matrix), len(columns)
    rgb = np.empty((n_rows, n_cols, 3))
    pass_rgb, fail_rgb = np.array(to_rgb(PASS_COLOR)), np.array(to_rgb(FAIL_COLOR))
    texts = []
    for j, column in enumerate(columns):
        values = matrix[column].to_numpy()
        if not registry.measure(column).binary:
            shade = np.clip(values.astype(float), 0, 1)[:, None]
            rgb[:, j] = (1 - shade) * np.ones(3) + shade * np.array(to_rgb(_F1_COLOR))
            texts.append([f"{v:.2f}" for v in values])
        else:
            rgb[:, j] = np.where(values.astype(bool)[:, None], pass_rgb, fail_rgb)
            if counted[column] is not None:
                count, bound = counted[column]
                texts.append([f"{p}/{t}" for p, t in zip(matrix[count], matrix[bound])])
            else:
                texts.append(["pass" if v else "fail" for v in values])
    cells = [(i, j, text, {}) for j, column_texts in enumerate(texts)
             for i, text in enumerate(column_texts)]
    artists = heatmap(ax, rgb, cells, columns=list(labels.values()),
                      rows=_variant_labels(matrix), top=True)
    ax.set_title("Each benchmark variant under each rule", pad=28)
    binary = matrix[[c for c in columns if registry.measure(c).binary]].to_numpy(dtype=bool)
    shades = ", ".join(m.short for m in graded)
    handles = [Patch(facecolor=color, label=label) for color, label, drawn in
               ((PASS_COLOR, "pass", binary.any()), (FAIL_COLOR, "fail", (~binary).any()),
                (_F1_COLOR, f"{shades}: the value (shade from 0 to 1)", n_rows > 0 and graded))
               if drawn]
    artists.append(ax.legend(handles=handles, loc="upper center", ncols=max(len(handles), 1),
                             bbox_to_anchor=(0.5, -0.02), frameon=False))
    return artists


def rule_matrix_figure(matrix: pd.DataFrame):
    """Figure (a) of notebook 02: the variant × rule matrix."""
    with style():
        fig, ax = figure(figsize=(FIGURE_WIDTH, 1.2 + 0.28 * len(matrix)), layout="constrained")
        plot_rule_matrix(ax, matrix)
    return fig


def plot_label_bars(ax, counts: pd.DataFrame) -> list:
    """Grouped bars: per rule, the facts-complete and facts-incomplete fixtures it passes.

    ``counts`` is :func:`~recallscore_nb.analysis.agreement.label_counts`'s table. Each bar
    reads ``passing/total``; with no labelled row the axes say so instead. A group that no
    rule passes (all its bars of height zero) is not drawn, and keeps no empty slot: a line
    under the axes says so, as it names the rows left out. The legend, below the axes
    (outside them under a constrained layout), names the groups drawn. Returns the artists.
    """
    complete_total = int(counts["complete_total"].max()) if len(counts) else 0
    incomplete_total = int(counts["incomplete_total"].max()) if len(counts) else 0
    ax.set_title("Full matches per rule, by the fixtures' facts-complete label")
    if complete_total + incomplete_total == 0:
        ax.set_axis_off()
        return [ax.text(0.5, 0.5, "n/a: no row carries a fixtureFactsComplete label",
                        ha="center", va="center", transform=ax.transAxes)]
    x = np.arange(len(counts))
    artists, handles, notes = [], [], []
    groups = [("complete", complete_total, _COMPLETE_COLOR, "facts complete"),
              ("incomplete", incomplete_total, _INCOMPLETE_COLOR, "facts incomplete")]
    drawn = [g for g in groups if counts[f"{g[0]}_pass"].to_numpy().any()]
    for key, total, _, name in groups:
        if (key, total) not in {(g[0], g[1]) for g in drawn} and total:
            notes.append(f"no {name} fixture passes any rule (0/{total} under each)")
    width = 0.76 / max(len(drawn), 1)  # no slot kept for a group with no bar
    for k, (key, total, color, name) in enumerate(drawn):
        passing = counts[f"{key}_pass"].to_numpy()
        offset = (k - (len(drawn) - 1) / 2) * width
        bars = ax.bar(x + offset, passing, width, color=color,
                      label=f"{name} fixtures passing (of {total})")
        artists.append(bars)
        artists += ax.bar_label(bars, labels=[f"{p}/{total}" for p in passing], padding=2)
        handles.append(bars)
    ax.set_ylim(0, max(complete_total, incomplete_total) * 1.12)
    labels = rule_labels()
    ax.set_xticks(x, [labels.get(r, r) for r in counts["rule"]])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("fixtures passing the rule")
    unlabelled = int(counts["unlabelled"].max())
    if unlabelled:
        notes.append(f"{unlabelled} row(s) without a facts-complete label left out")
    ax.set_xlabel("\n".join(notes))
    if handles:
        artists.append(ax.figure.legend(handles=handles, loc="outside lower center",
                                        ncols=len(handles)))
    return artists


def label_figure(counts: pd.DataFrame):
    """Figure (b) of notebook 02: full matches per rule against the facts-complete label."""
    with style():
        fig, ax = figure(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
        plot_label_bars(ax, counts)
    return fig


def plot_facts_present(ax, table: pd.DataFrame) -> list:
    """Horizontal bars of the facts present per variant, the facts total as a line.

    ``table`` has ``id, condition``, the checklist's counts of facts present and total
    (:class:`~recallscore_nb.core.rules.Checklist`), and ``missing``. Bars of variants
    with every fact present are coloured pass, the others fail. The axis ends at the facts
    total, drawn as a dashed line; right of it, clear of the bars and the line, each variant
    reads ``present/total`` and names the facts missing. The legend, below the axes (outside
    them under a constrained layout), names only the colours drawn. Returns the artists drawn.
    """
    y = np.arange(len(table))
    total = int(table[Checklist.total].max()) if len(table) else 0
    full = (table[Checklist.present] == table[Checklist.total]).to_numpy()
    colors = np.where(full, PASS_COLOR, FAIL_COLOR)
    bars = ax.barh(y, table[Checklist.present], color=colors, edgecolor="#777777",
                   linewidth=0.6)
    labels = [f"{p}/{t}" + (f"  missing: {m}" if m else "") for p, t, m in
              zip(table[Checklist.present], table[Checklist.total], table["missing"])]
    artists = [bars]
    for yi, label in zip(y, labels):
        artists.append(ax.annotate(label, (total, yi), xytext=(4, 0),
                                   textcoords="offset points", va="center",
                                   annotation_clip=False))
    line = ax.axvline(total, color=_TOTAL_COLOR, linestyle="--", linewidth=1.2,
                      label=f"facts total ({total})", clip_on=False)
    artists.append(line)
    ax.set_yticks(y, _variant_labels(table))
    ax.invert_yaxis()
    ax.set_xlim(0, max(total, 1))
    ax.set_xticks(range(total + 1))
    ax.set_xlabel("facts present (checklist)")
    ax.set_title("Facts present per benchmark variant")
    handles = [Patch(facecolor=color, edgecolor="#777777", label=name)
               for color, name, drawn in ((PASS_COLOR, "all facts present", full.any()),
                                          (FAIL_COLOR, "some fact missing", (~full).any()))
               if drawn]
    artists.append(ax.figure.legend(handles=[*handles, line], loc="outside lower center",
                                    ncols=len(handles) + 1))
    return artists


def facts_present_figure(table: pd.DataFrame):
    """Figure (c) of notebook 02: facts present per variant, with the facts total."""
    with style():
        fig, ax = figure(figsize=(FIGURE_WIDTH, 1.3 + 0.26 * len(table)), layout="constrained")
        plot_facts_present(ax, table)
    return fig


# --- notebook 07: fact statuses ---------------------------------------------------------------
def plot_fact_status(ax_status, ax_scores, matrix: pd.DataFrame, facts) -> list:
    """Draw variants × facts coloured by status on ``ax_status``, and beside them on
    ``ax_scores`` the binary checklist (pass/fail, facts present) and the weighted score
    (its value, shaded from near-white at 0).

    ``matrix`` has ``id, condition``, ``status_<fact>``, ``weighted_score`` and the binary
    checklist's columns (:class:`~recallscore_nb.core.rules.Checklist`). Each axes gets its legend
    below it, naming only what it draws (the statuses that occur; pass or fail as they
    occur). Returns the artists drawn.
    """
    n_rows, n_facts = len(matrix), len(facts)
    rgb = np.empty((n_rows, n_facts, 3))
    for j, fact in enumerate(facts):
        for i, status in enumerate(matrix[f"status_{fact.name}"]):
            rgb[i, j] = to_rgb(STATUS_COLORS[status])
    cells = [(i, j, status, {"fontsize": 7, "color": "white" if status in _DARK else "black"})
             for j, fact in enumerate(facts)
             for i, status in enumerate(matrix[f"status_{fact.name}"])]
    rows = [f"{i}  {c}" if c else str(i) for i, c in zip(matrix["id"], matrix["condition"])]
    artists = heatmap(ax_status, rgb, cells, columns=[f.name for f in facts], rows=rows,
                      top=True)
    drawn = set(matrix[[f"status_{f.name}" for f in facts]].to_numpy().ravel().tolist())
    handles = [Patch(facecolor=STATUS_COLORS[s], label=s) for s in STATUSES if s in drawn]
    artists.append(ax_status.legend(handles=handles, loc="upper center",
                                    ncols=max(len(handles), 1), bbox_to_anchor=(0.5, -0.01),
                                    title="status of the fact"))

    full = matrix[Checklist.column].to_numpy(dtype=bool)
    score = np.clip(matrix["weighted_score"].to_numpy(dtype=float), 0, 1)
    right = np.empty((n_rows, 2, 3))
    right[:, 0] = _passes_rgb(full)
    low, high = np.array(to_rgb(_SCORE_LOW)), np.array(to_rgb(_SCORE_COLOR))
    right[:, 1] = (1 - score[:, None]) * low + score[:, None] * high
    cells = []
    for i in range(n_rows):
        checklist = (f"{'pass' if full[i] else 'fail'} "
                     f"{matrix[Checklist.present].iat[i]}/{matrix[Checklist.total].iat[i]}")
        cells.append((i, 0, checklist, {"fontsize": 7}))
        cells.append((i, 1, f"{matrix['weighted_score'].iat[i]:.3f}", {"fontsize": 7}))
    artists += heatmap(ax_scores, right, cells,
                       columns=["checklist\n(facts present)", "weighted\nscore"], rows=None,
                       top=True)
    ax_scores.tick_params(axis="y", labelleft=False)
    handles = [Patch(facecolor=color, label=label) for color, label, shown in
               ((PASS_COLOR, "checklist pass", full.any()),
                (FAIL_COLOR, "checklist fail", (~full).any()),
                (_SCORE_COLOR, "weighted score\n(shade from 0 to 1)", n_rows > 0)) if shown]
    artists.append(ax_scores.legend(handles=handles, loc="upper center", ncols=1,
                                    bbox_to_anchor=(0.5, -0.01)))
    return artists


def fact_status_figure(matrix: pd.DataFrame, facts):
    """Notebook 07's figure: the status matrix, the checklist and the weighted score beside it."""
    with style():
        fig, (ax_status, ax_scores) = figure(
            1, 2, figsize=(FIGURE_WIDTH, 1.8 + 0.26 * len(matrix)),
            sharey=True, layout="constrained",
            gridspec_kw={"width_ratios": [len(facts), 2]})
        plot_fact_status(ax_status, ax_scores, matrix, facts)
        fig.suptitle("Each fact's status under the scoring schema;\n"
                     "the binary checklist and the weighted score beside it")
    return fig
