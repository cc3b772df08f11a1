"""Notebook 02's steps: the rules' matrix, the facts-complete bars and the facts present, on
the shipped benchmark and on one of our own, with their figures and numbers."""

from __future__ import annotations

import recallscore_nb as rs
from tests.workbook.sessions import session, written

STEM = "02_rule_figures"


def scores_of(nb):
    return rs.score_benchmark(nb.benchmark, squad_mode=nb.params.squad_mode)


def by_label_figure(nb, scores):
    return rs.label_figure(rs.label_counts(scores, rs.facts_complete_labels(nb.benchmark)))


def test_02_tables_and_figures_on_the_shipped_benchmark(tmp_path, svg_only):
    nb = session(STEM, tmp_path)
    scores = scores_of(nb)
    matrix = rs.rule_matrix(scores)
    assert matrix["literal_match"].sum() == 1 and matrix["checklist_full_match"].sum() == 8
    assert matrix["facts_present"].tolist() == [4] * 8 + [3] * 4
    by_label = rs.passes_by_label(scores, rs.facts_complete_labels(nb.benchmark))
    counts = by_label.set_index("rule")
    assert counts.loc["checklist", ["complete_pass", "incomplete_pass"]].tolist() == [8, 0]
    assert counts.loc["literal", ["complete_pass", "complete_total"]].tolist() == [1, 8]
    # equivalent passes the eight complete rows and R09 ("copper" left out, by overlap), not
    # R10-R12, whose fact is replaced by another word (east drawer, after, silver token)
    assert counts.loc["equivalent", ["complete_pass", "incomplete_pass"]].tolist() == [8, 1]
    nb.quote(rs.rule_figure_numbers(by_label))
    assert nb.numbers["FigureCompletePassNormalized"] == "4"
    assert nb.numbers["FigureIncompletePassSquad"] == "0"
    facts = rs.facts_present(scores, nb.benchmark.facts)
    assert facts["missing"].tolist()[8:] == ["material", "location", "timing", "material"]
    shown = [nb.save("matrix", rs.rule_matrix_figure(matrix)),
             nb.save("by_label", by_label_figure(nb, scores)),
             nb.save("facts", rs.facts_present_figure(facts))]
    for what, saved in zip(("matrix", "by_label", "facts"), shown):
        assert written(tmp_path, STEM, what, "figures")
        assert repr(saved) == f"figures/{STEM}__{what}.svg"


def test_02_without_labels_says_na(tmp_path, own_benchmark):
    nb = session(STEM, tmp_path, benchmark_path=str(own_benchmark))
    scores = scores_of(nb)
    by_label = rs.passes_by_label(scores, rs.facts_complete_labels(nb.benchmark))
    assert by_label["complete_pass"].tolist() == ["n/a"] * 6  # one per binary rule
    assert by_label["unlabelled"].tolist() == [4] * 6
    assert rs.rule_figure_numbers(by_label)["FigureCompletePassChecklist"] == "n/a"
    assert rs.facts_present(scores, nb.benchmark.facts)["facts_total"].tolist() == [3] * 4
    saved = nb.save("by_label", by_label_figure(nb, scores))  # every format, once
    assert written(tmp_path, STEM, "by_label", "figures")
    png = tmp_path / "figures" / f"{STEM}__by_label.png"
    assert saved._repr_png_() == png.read_bytes()  # Jupyter shows the PNG file's own bytes
