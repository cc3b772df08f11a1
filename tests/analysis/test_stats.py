"""The statistics' names, given by :mod:`recallscore_nb.analysis.stats` from their modules."""

from __future__ import annotations

from recallscore_nb.analysis import bootstrap, paired_comparison, rule_values, stats, system_tables


def test_every_name_is_the_one_of_its_module():
    homes = (bootstrap, paired_comparison, rule_values, system_tables)
    for name in stats.__all__:
        owners = [m for m in homes if getattr(m, name, None) is getattr(stats, name)]
        assert owners, name
    assert stats.system_table is system_tables.system_table
    assert stats.paired_comparison is paired_comparison.paired_comparison
