"""Notebook 05's figure, drawn from the shipped data: saturated panels explained in the figure,
one panel per measure."""

from __future__ import annotations

from tests.render.shipped import drawn_figures, legend_texts

drawn = drawn_figures(["05 intervals"])


def test_05_saturated_panels_explained_in_the_figure(drawn):
    fig, _ = drawn["05 intervals"]
    texts = legend_texts(fig)
    assert texts == ["system: mean, 95% interval", "control",
                     "saturated rule (red title, shaded): its two best systems\n"
                     "both reach 0.95 and their intervals overlap"]
    saturated = [ax.get_title() for ax in fig.axes if ax.get_title().endswith("saturated")]
    assert saturated == ["checklist, all facts\nsaturated", "checklist, share of facts\nsaturated",
                         "equivalent to a reference\nsaturated",
                         "schema-aware checklist\nsaturated", "weighted score\nsaturated"]


def test_05_one_panel_per_measure(drawn):
    from recallscore_nb.analysis.schema_measures import measures_with_schema as measures

    fig, _ = drawn["05 intervals"]
    titles = [ax.get_title().split("\n")[0] for ax in fig.axes if ax.get_visible()]
    assert titles == list(measures().values())  # the registry's, then the schema's two
