"""Every figure of the workbook, made from the shipped data by the calls its notebook makes
(the same functions, the same arguments), without a kernel."""

from __future__ import annotations

import recallscore_nb as rs
from tests.analysis.notebook_steps import evaluate, intervals_figure, judged_sets
from tests.analysis.notebook_steps import steps as steps_05
from tests.workbook.sessions import session


def _scores(nb):
    return rs.score_benchmark(nb.benchmark, squad_mode=nb.params.squad_mode)


def _by_label(nb):
    return rs.label_figure(rs.label_counts(_scores(nb), rs.facts_complete_labels(nb.benchmark)))


def _heatmap(nb):
    verdicts = rs.ablation_table(nb.benchmark, schema=nb.schema)
    return rs.ablation_figure(rs.heatmap_panels(verdicts, baseline="seed"), baseline="seed",
                              pipelines=rs.ablation_pipelines())


def _intervals(nb):
    tables = steps_05(nb)
    return intervals_figure(nb, tables["intervals"], tables["saturation"])


def _status(nb):
    scored = rs.score_fact_statuses(nb.benchmark, nb.schema, squad_mode="v1.1")
    return rs.fact_status_figure(rs.status_matrix(scored, nb.benchmark.facts), nb.benchmark.facts)


def _accuracy(nb):
    evaluation = evaluate(nb)
    return rs.accuracy_figure(evaluation.systems, rs.measures_present(evaluation),
                              rs.judges_of(evaluation))


def _ranking(nb):
    evaluation = evaluate(nb)
    return rs.ranking_figure(rs.rank_table(evaluation.systems), rs.ranking_labels(evaluation))


def _kappa(nb):
    evaluation = evaluate(nb)
    return rs.kappa_figure(evaluation.agreement, evaluation.panel,
                           rs.measures_present(evaluation), nb.params.reference_judge)


def _step_ablation(nb):
    return rs.step_ablation_figure(rs.step_ablation(judged_sets(nb)))


def _categories(nb):
    evaluation = evaluate(nb)
    return rs.categories_figure(evaluation.disagreements, rs.measures_present(evaluation),
                                rs.DISAGREEMENT_CATEGORIES)


FIGURES = {
    "02 matrix": ("02_rule_figures", lambda nb: rs.rule_matrix_figure(rs.rule_matrix(_scores(nb)))),
    "02 by_label": ("02_rule_figures", _by_label),
    "02 facts": ("02_rule_figures",
                 lambda nb: rs.facts_present_figure(rs.facts_present(_scores(nb), nb.benchmark.facts))),
    "03 heatmap": ("03_normalization_ablation", _heatmap),
    "05 intervals": ("05_reanalysis", _intervals),
    "06 suites": ("06_suite_catalogue",
                  lambda nb: rs.suites_figure(rs.suites_frame(nb.catalogue), nb.catalogue.generated)),
    "07 matrix": ("07_fact_status", _status),
    "08 accuracy": ("08_human_agreement", _accuracy),
    "08 ranking": ("08_human_agreement", _ranking),
    "08 kappa": ("08_human_agreement", _kappa),
    "08 categories": ("08_human_agreement", _categories),
    "08 step ablation": ("08_human_agreement", _step_ablation),
}
"""Each figure's name (notebook and what) -> its notebook and how its notebook makes it."""


def draw(name: str, tmp_path):
    """The figure ``name``, made from the shipped data with the notebook's default parameters."""
    stem, make = FIGURES[name]
    return make(session(stem, tmp_path))


def drawn_figures(names):
    """A fixture for a test module: each figure of ``names`` with its measurement
    (:func:`~recallscore_nb.render.figures.measure`), by name, drawn once, closed after."""
    import matplotlib.pyplot as plt
    import pytest

    from recallscore_nb.render.figures import measure

    @pytest.fixture(scope="module")
    def drawn(tmp_path_factory):
        out = {}
        for name in names:
            fig = draw(name, tmp_path_factory.mktemp("figures"))
            out[name] = (fig, measure(fig))
        yield out
        for fig, _ in out.values():
            plt.close(fig)

    return drawn


def legend_texts(fig) -> list[str]:
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    return [t.get_text() for legend in legends for t in legend.get_texts()]
