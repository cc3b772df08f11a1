"""Notebook 02: the paper's figures of the rules' verdicts, each with its underlying table.

(a) the variant × rule matrix, (b) full matches per rule against the fixtures'
facts-complete label, (c) facts present per variant. The ``plot_*`` functions draw on the
axes they are given and return the artists; the steps build the figures under the shipped
style and write them through the session.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from ...analysis.ablation import FAIL_COLOR, PASS_COLOR
from ...analysis.agreement import NA_TEXT, facts_complete_labels, label_counts
from ...render.figures import FIGURE_WIDTH, figure
from ...core.rules import rules_for
from ...core.scoring import score_benchmark
from ..session import Session
from ..session import start as _start

__all__ = ["STEM", "start", "matrix_table", "matrix_figure", "label_table", "label_figure",
           "facts_table", "facts_figure", "rule_matrix", "facts_present", "plot_rule_matrix",
           "plot_label_bars", "plot_facts_present"]

STEM = "02_rule_figures"

MATRIX_COLUMNS = {
    "literal_match": "literal",
    "normalized_match": "normalized",
    "squad_exact_match": "SQuAD EM",
    "token_f1": "token F1",
    "checklist_full_match": "checklist\n(facts present)",
}
"""The matrix's columns and their labels, in order."""

RULE_LABELS = {"literal": "literal", "normalized": "normalized",
               "squad_exact_match": "SQuAD EM", "checklist": "checklist full"}
_COMPLETE_COLOR = "#01665e"
_INCOMPLETE_COLOR = "#bf812d"
_TOTAL_COLOR = "#444444"
_F1_COLOR = "#9e9ac8"


def start(namespace: dict) -> Session:
    """Validate the parameters; the session signs its outputs with the five rules."""
    nb = _start(STEM, namespace)
    nb.sign(*(rule.signature() for rule in rules_for(str(nb.parameters["squad_mode"]))))
    return nb


def _scores(nb: Session) -> pd.DataFrame:
    return nb.memo("scores", lambda: score_benchmark(
        nb.benchmark, squad_mode=str(nb.parameters["squad_mode"])))


def _labels(nb: Session) -> pd.Series:
    return facts_complete_labels(nb.benchmark)


def _row_labels(scores: pd.DataFrame) -> list[str]:
    conditions = scores["condition"] if "condition" in scores else [None] * len(scores)
    return [f"{i}  {c}" if isinstance(c, str) and c else str(i)
            for i, c in zip(scores["id"], conditions)]


# --- (a) the variant × rule matrix ----------------------------------------------------------
def rule_matrix(scores: pd.DataFrame) -> pd.DataFrame:
    """The matrix's data: ``id, condition``, the verdicts, token F1 and the facts present."""
    out = pd.DataFrame({"id": scores["id"].astype(object),
                        "condition": (scores["condition"].astype(object).fillna("")
                                      if "condition" in scores else "")})
    for column in [*MATRIX_COLUMNS, "facts_present", "facts_total"]:
        out[column] = scores[column].to_numpy()
    return out


def plot_rule_matrix(ax, matrix: pd.DataFrame) -> list:
    """Draw variants × rules: binary cells coloured pass/fail (the checklist's reading the
    facts present, ``3/4``), token F1 as its value on a white-to-lavender shade. The legend
    below names pass and fail only as they occur.

    Returns the artists drawn: the image, the cell texts, the legend.
    """
    columns = list(MATRIX_COLUMNS)
    n_rows, n_cols = len(matrix), len(columns)
    rgb = np.empty((n_rows, n_cols, 3))
    pass_rgb, fail_rgb = np.array(to_rgb(PASS_COLOR)), np.array(to_rgb(FAIL_COLOR))
    texts = []
    for j, column in enumerate(columns):
        values = matrix[column].to_numpy()
        if column == "token_f1":
            shade = np.clip(values.astype(float), 0, 1)[:, None]
            rgb[:, j] = (1 - shade) * np.ones(3) + shade * np.array(to_rgb(_F1_COLOR))
            texts.append([f"{v:.2f}" for v in values])
        else:
            rgb[:, j] = np.where(values.astype(bool)[:, None], pass_rgb, fail_rgb)
            if column == "checklist_full_match":
                texts.append([f"{p}/{t}" for p, t in
                              zip(matrix["facts_present"], matrix["facts_total"])])
            else:
                texts.append(["pass" if v else "fail" for v in values])
    artists = [ax.imshow(rgb, aspect="auto", interpolation="nearest")]
    for j, column_texts in enumerate(texts):
        for i, text in enumerate(column_texts):
            artists.append(ax.text(j, i, text, ha="center", va="center"))
    ax.set_xticks(range(n_cols), list(MATRIX_COLUMNS.values()))
    ax.xaxis.tick_top()
    ax.set_yticks(range(n_rows), _row_labels(matrix))
    ax.set_xticks(np.arange(-0.5, n_cols, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, n_rows, 1), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="both", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title("Each benchmark variant under each rule", pad=28)
    binary = matrix[[c for c in columns if c != "token_f1"]].to_numpy(dtype=bool)
    handles = [Patch(facecolor=color, label=label) for color, label, drawn in
               ((PASS_COLOR, "pass", binary.any()), (FAIL_COLOR, "fail", (~binary).any()),
                (_F1_COLOR, "token F1: the value (shade from 0 to 1)", n_rows > 0)) if drawn]
    artists.append(ax.legend(handles=handles, loc="upper center", ncols=max(len(handles), 1),
                             bbox_to_anchor=(0.5, -0.02), frameon=False))
    return artists


def matrix_table(nb: Session):
    """Figure (a)'s data: every variant's verdicts, token F1 and facts present."""
    return nb.table("matrix", rule_matrix(_scores(nb)))


def matrix_figure(nb: Session):
    """Figure (a): the variant × rule matrix."""
    matrix = rule_matrix(_scores(nb))
    fig, ax = figure(figsize=(FIGURE_WIDTH, 1.2 + 0.28 * len(matrix)), layout="constrained")
    plot_rule_matrix(ax, matrix)
    return nb.figure("matrix", fig)


# --- (b) full matches against the facts-complete label --------------------------------------
def plot_label_bars(ax, counts: pd.DataFrame) -> list:
    """Grouped bars: per rule, the facts-complete and facts-incomplete fixtures it passes.

    ``counts`` is :func:`~recallscore_nb.analysis.agreement.label_counts`'s table. Each bar reads
    ``passing/total``; with no labelled row the axes say so instead. The legend, below the
    axes (outside them under a constrained layout), names only the groups with a bar drawn;
    a group that no rule passes (all its bars of height zero) is said so in a line under
    the axes instead, as are the rows left out. Returns the artists.
    """
    complete_total = int(counts["complete_total"].max()) if len(counts) else 0
    incomplete_total = int(counts["incomplete_total"].max()) if len(counts) else 0
    ax.set_title("Full matches per rule, by the fixtures' facts-complete label")
    if complete_total + incomplete_total == 0:
        ax.set_axis_off()
        return [ax.text(0.5, 0.5, "n/a: no row carries a fixtureFactsComplete label",
                        ha="center", va="center", transform=ax.transAxes)]
    x = np.arange(len(counts))
    width = 0.38
    artists, handles, notes = [], [], []
    groups = [("complete", complete_total, _COMPLETE_COLOR, -width / 2, "facts complete"),
              ("incomplete", incomplete_total, _INCOMPLETE_COLOR, width / 2,
               "facts incomplete")]
    for key, total, color, offset, name in groups:
        passing = counts[f"{key}_pass"].to_numpy()
        bars = ax.bar(x + offset, passing, width, color=color,
                      label=f"{name} fixtures passing (of {total})")
        artists.append(bars)
        artists += ax.bar_label(bars, labels=[f"{p}/{total}" for p in passing], padding=2)
        if passing.any():
            handles.append(bars)
        elif total:
            notes.append(f"no {name} fixture passes any rule (0/{total} under each)")
    ax.set_ylim(0, max(complete_total, incomplete_total) * 1.12)
    ax.set_xticks(x, [RULE_LABELS.get(r, r) for r in counts["rule"]])
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


def _counts(nb: Session) -> pd.DataFrame:
    return label_counts(_scores(nb), _labels(nb))


def label_table(nb: Session):
    """Figure (b)'s data: per binary rule, passing fixtures by facts-complete label.

    With no labelled row at all, the passing counts read ``n/a``.
    """
    counts = _counts(nb)
    known = bool((counts["complete_total"] + counts["incomplete_total"]).gt(0).any())
    for record in counts.itertuples(index=False):
        tag = _tag(record.rule)
        nb.number(f"FigureCompletePass{tag}", record.complete_pass if known else NA_TEXT)
        nb.number(f"FigureIncompletePass{tag}", record.incomplete_pass if known else NA_TEXT)
    if not known:
        counts = counts.astype({"complete_pass": object, "incomplete_pass": object})
        counts[["complete_pass", "incomplete_pass"]] = NA_TEXT
    return nb.table("by_label", counts)


def label_figure(nb: Session):
    """Figure (b): grouped bars of full matches per rule against the facts-complete label."""
    fig, ax = figure(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
    plot_label_bars(ax, _counts(nb))
    return nb.figure("by_label", fig)


# --- (c) facts present per variant ----------------------------------------------------------
def facts_present(scores: pd.DataFrame, facts) -> pd.DataFrame:
    """Per variant: facts present, facts total, and the facts missing (by name)."""
    fact_columns = [f"fact_{f.name}" for f in facts]
    present = scores[fact_columns].to_numpy(dtype=bool)
    missing = ["; ".join(f.name for f, ok in zip(facts, row) if not ok) for row in present]
    return pd.DataFrame({
        "id": scores["id"].astype(object),
        "condition": (scores["condition"].astype(object).fillna("")
                      if "condition" in scores else ""),
        "facts_present": scores["facts_present"].to_numpy(),
        "facts_total": scores["facts_total"].to_numpy(),
        "missing": missing,
    })


def plot_facts_present(ax, table: pd.DataFrame) -> list:
    """Horizontal bars of the facts present per variant, the facts total as a line.

    ``table`` is :func:`facts_present`'s. Bars of variants with every fact present are
    coloured pass, the others fail. The axis ends at the facts total, drawn as a dashed
    line; right of it, clear of the bars and the line, each variant reads ``present/total``
    and names the facts missing. The legend, below the axes (outside them under a
    constrained layout), names only the colours drawn. Returns the artists drawn.
    """
    y = np.arange(len(table))
    total = int(table["facts_total"].max()) if len(table) else 0
    full = (table["facts_present"] == table["facts_total"]).to_numpy()
    colors = np.where(full, PASS_COLOR, FAIL_COLOR)
    bars = ax.barh(y, table["facts_present"], color=colors, edgecolor="#777777",
                   linewidth=0.6)
    labels = [f"{p}/{t}" + (f"  missing: {m}" if m else "") for p, t, m in
              zip(table["facts_present"], table["facts_total"], table["missing"])]
    artists = [bars]
    for yi, label in zip(y, labels):
        artists.append(ax.annotate(label, (total, yi), xytext=(4, 0),
                                   textcoords="offset points", va="center",
                                   annotation_clip=False))
    line = ax.axvline(total, color=_TOTAL_COLOR, linestyle="--", linewidth=1.2,
                      label=f"facts total ({total})", clip_on=False)
    artists.append(line)
    ax.set_yticks(y, _row_labels(table))
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


def facts_table(nb: Session):
    """Figure (c)'s data: facts present, total and missing per variant."""
    return nb.table("facts", facts_present(_scores(nb), nb.benchmark.facts))


def facts_figure(nb: Session):
    """Figure (c): facts present per variant, with the facts total."""
    table = facts_present(_scores(nb), nb.benchmark.facts)
    fig, ax = figure(figsize=(FIGURE_WIDTH, 1.3 + 0.26 * len(table)), layout="constrained")
    plot_facts_present(ax, table)
    return nb.figure("facts", fig)


def _tag(rule: str) -> str:
    return {"squad_exact_match": "Squad"}.get(rule, rule.capitalize())
