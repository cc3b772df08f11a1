"""Notebook 02's chapter: the rules' matrix, the facts-complete bars and the facts present, on the
shipped benchmark and on one of our own."""

from __future__ import annotations


from recallscore_nb.workbook.chapters import rule_figures as ch02
from tests.workbook.chapters.sessions import session, written


def test_02_tables_and_figures_on_the_shipped_benchmark(tmp_path, svg_only):
    nb = session(ch02, tmp_path)
    scores = ch02.scores(nb)
    matrix = ch02.rule_matrix(scores)
    assert matrix["literal_match"].sum() == 1 and matrix["checklist_full_match"].sum() == 8
    assert matrix["facts_present"].tolist() == [4] * 8 + [3] * 4
    by_label = ch02.by_label(nb, scores)
    counts = by_label.set_index("rule")
    assert counts.loc["checklist", ["complete_pass", "incomplete_pass"]].tolist() == [8, 0]
    assert counts.loc["literal", ["complete_pass", "complete_total"]].tolist() == [1, 8]
    nb.quote(ch02.numbers(by_label))
    assert nb.numbers["FigureCompletePassNormalized"] == "4"
    assert nb.numbers["FigureIncompletePassSquad"] == "0"
    facts = ch02.facts(nb, scores)
    assert facts["missing"].tolist()[8:] == ["material", "location", "timing", "material"]
    shown = [nb.save("matrix", ch02.matrix_figure(matrix)),
             nb.save("by_label", ch02.by_label_figure(nb, scores)),
             nb.save("facts", ch02.facts_figure(facts))]
    for what, saved in zip(("matrix", "by_label", "facts"), shown):
        assert written(tmp_path, ch02.STEM, what, "figures")
        assert repr(saved) == f"figures/{ch02.STEM}__{what}.svg"


def test_02_without_labels_says_na(tmp_path, own_benchmark):
    nb = session(ch02, tmp_path, benchmark_path=str(own_benchmark))
    scores = ch02.scores(nb)
    by_label = ch02.by_label(nb, scores)
    assert by_label["complete_pass"].tolist() == ["n/a"] * 5  # one per binary rule
    assert by_label["unlabelled"].tolist() == [4] * 5
    assert ch02.numbers(by_label)["FigureCompletePassChecklist"] == "n/a"
    assert ch02.facts(nb, scores)["facts_total"].tolist() == [3] * 4
    saved = nb.save("by_label", ch02.by_label_figure(nb, scores))  # every format, once
    assert written(tmp_path, ch02.STEM, "by_label", "figures")
    png = tmp_path / "figures" / f"{ch02.STEM}__by_label.png"
    assert saved._repr_png_() == png.read_bytes()  # Jupyter shows the PNG file's own bytes
