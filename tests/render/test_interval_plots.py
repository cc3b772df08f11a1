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


def test_05_is_no_page_tall_and_every_panel_reads_its_scores(drawn):
    """Issue 21: 05 was 7.8 in tall, a full page, and its top panels had no x tick labels."""
    fig, m = drawn["05 intervals"]
    assert m.height <= 6.5
    for ax in (a for a in fig.axes if a.get_visible()):
        shown = [t.get_text() for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
        assert shown == ["0", ".25", ".5", ".75", "1"], ax.get_title()
        assert all(t.get_visible() for t in ax.get_xticklabels())
        assert ax.xaxis.get_tick_params()["labelbottom"]
