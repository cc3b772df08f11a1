"""recallscore: score free-text answers against a reference, reproducibly, row by row.

>>> from recallscore_nb import load_benchmark, score_benchmark
>>> from recallscore_nb.core.rules import Checklist
>>> scores = score_benchmark(load_benchmark())
>>> int(scores[Checklist.column].sum())
8

The public names, listed in ``__all__``, come from the package's layers (``core``: rules,
normalizers, errors; ``io``: loading files; ``execution``: loading and scoring as the command
runs them, with worker processes where forking is safe; ``analysis``: tables computed from
scored tables; ``render``: figures; ``workbook``: a notebook's session) and are imported on
first use, so importing the package, and starting the command line, stays quick. The
notebooks call them as ``import recallscore_nb as rs``, each cell one call with its options
in view.
"""

from importlib import import_module

from ._version import __version__

_LAZY = {
    "load_benchmark": "io.benchmarks",
    "score_benchmark": "execution.api",
    "load_items": "execution.api",
    "score_items": "execution.api",
    "load_scoring_schema": "io.scoring_schemas",
    "fact_status": "execution.api",
    "read_attempts": "io.attempts",
    "literal_match": "core.scoring",
    "normalized_match": "core.scoring",
    "squad_exact_match": "core.scoring",
    "token_f1": "core.scoring",
    "contains": "core.scoring",
    "equivalent": "core.scoring",
    "checklist": "core.scoring",
    "rules": "core.registry",
    "normalizers": "core.registry",
    "Benchmark": "core.benchmark",
    "RecallScoreError": "core.errors",
    "BenchmarkFormatError": "core.errors",
    # the workbook's steps: what each notebook's cells call
    "start_notebook": "workbook.session",
    "relative_to_repo": "workbook.session",
    "reproduce": "analysis.reproduce",
    "rule_matrix": "analysis.verdict_tables",
    "passes_by_label": "analysis.verdict_tables",
    "facts_present": "analysis.verdict_tables",
    "facts_complete_labels": "analysis.agreement",
    "label_counts": "analysis.agreement",
    "side_by_side": "analysis.agreement",
    "agreement_table": "analysis.agreement",
    "precision_recall_table": "analysis.agreement",
    "disagreements": "analysis.agreement",
    "na_as_text": "analysis.agreement",
    "ablation_signature": "analysis.ablation",
    "ablation_table": "analysis.ablation",
    "matrix_table": "analysis.ablation",
    "flips": "analysis.ablation",
    "ablation_pipelines": "analysis.ablation_overview",
    "pipeline_signatures": "analysis.ablation_overview",
    "heatmap_panels": "analysis.ablation_overview",
    "with_schema_measures": "analysis.schema_measures",
    "measures_with_schema": "analysis.schema_measures",
    "binary_measures_with_schema": "analysis.schema_measures",
    "CONTROL_SYSTEMS": "analysis.controls",
    "control_means": "analysis.controls",
    "stuffing_findings": "analysis.controls",
    "gaming_audit_sets": "analysis.gaming_sets",
    "gaming_numbers": "analysis.gaming_sets",
    "gaming_figure": "render.agreement_plots",
    "without_controls": "analysis.controls",
    "attempts_per_system": "analysis.system_means",
    "score_with_controls": "analysis.system_means",
    "bootstrap_intervals": "analysis.system_means",
    "saturated_by_rule": "analysis.system_means",
    "bootstrap_signature": "analysis.bootstrap",
    "saturated": "analysis.bootstrap",
    "catalogue_signature": "analysis.catalogue",
    "catalogue_source": "analysis.catalogue",
    "suites_frame": "analysis.catalogue",
    "flags_frame": "analysis.catalogue",
    "grader_fixes": "analysis.catalogue",
    "score_fact_statuses": "analysis.status_tables",
    "status_matrix": "analysis.status_tables",
    "status_counts": "analysis.status_tables",
    "explanations": "analysis.status_tables",
    "schema_facts": "analysis.status_tables",
    "schema_settings": "analysis.status_tables",
    "agree_signature": "analysis.meta_evaluation",
    "DISAGREEMENT_CATEGORIES": "analysis.meta_tables",
    "measures_present": "analysis.meta_tables",
    "judges_of": "analysis.meta_tables",
    "ranking_labels": "analysis.meta_tables",
    "accuracy_table": "analysis.meta_tables",
    "annotator_agreement": "analysis.meta_tables",
    "disagreement_counts": "analysis.meta_tables",
    "disagreement_examples": "analysis.meta_tables",
    "meta_table": "analysis.meta_tables",
    "reproduction_numbers": "analysis.paper_numbers",
    "rule_figure_numbers": "analysis.paper_numbers",
    "ablation_numbers": "analysis.paper_numbers",
    "agreement_numbers": "analysis.paper_numbers",
    "reanalysis_numbers": "analysis.paper_numbers",
    "catalogue_numbers": "analysis.paper_numbers",
    "fact_status_numbers": "analysis.paper_numbers",
    "human_agreement_numbers": "analysis.paper_numbers",
    "read_system_attempts": "io.attempts.systems",
    "load_results": "io.catalogue",
    "DEFAULT_ATTEMPTS": "io.data",
    "rule_matrix_figure": "render.plots",
    "label_figure": "render.plots",
    "facts_present_figure": "render.plots",
    "ablation_figure": "render.plots",
    "intervals_figure": "render.interval_plots",
    "fact_status_figure": "render.plots",
    "suites_figure": "render.suite_plots",
    "accuracy_figure": "render.agreement_plots",
    "ranking_figure": "render.agreement_plots",
    "kappa_figure": "render.agreement_plots",
    "categories_figure": "render.agreement_plots",
    "step_ablation_figure": "render.agreement_plots",
    "read_judged_sets": "io.human_sets",
    "meta_evaluate_sets": "analysis.meta_sets",
    "rank_table": "analysis.meta_evaluation",
    "like_with_like": "analysis.meta_tables",
    "step_ablation": "analysis.step_ablation",
    "guards_left_out": "analysis.step_ablation",
}
"""Each public name, once, and the module of its layer it is imported from on first use."""

__all__ = ["__version__", *_LAZY]
"""The public names: the version, then those of :data:`_LAZY`, in its order."""


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
