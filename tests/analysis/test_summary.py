"""Summaries of a scored file: the tables behind recallscore summarize, and the limit on resamples."""

from __future__ import annotations

import pandas as pd
import pytest

from recallscore_nb import load_benchmark, score_benchmark
from recallscore_nb.analysis.system_tables import system_table
from recallscore_nb.analysis.summary import MAX_RESAMPLES, read_scored
from recallscore_nb.cli.handlers import summarize_command
from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.data import DATA_DIR
from recallscore_nb.io.scored import write_scored
from tests.scored_fixtures import RULES, SCORED, write


SYSTEMS = DATA_DIR / "attempts" / "four_fact_systems.csv"


@pytest.fixture(scope="module")
def scored() -> pd.DataFrame:
    """The shipped systems' attempts scored against the shipped benchmark (one item)."""
    return score_benchmark(load_benchmark(), read_attempts(str(SYSTEMS)))


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_score_items_output_reads_back_with_its_empty_checklists(tmp_path, suffix):
    from recallscore_nb.core.items import Item, Items
    from recallscore_nb.core.facts import Fact
    from recallscore_nb.core.scoring import score_items

    items = Items("demo", "", (Item("q1", ("The west drawer.",), (Fact("place", ("west",)),)),
                               Item("q2", ("Paris", "Lutetia"), None)))
    attempts = pd.DataFrame({"system": ["a", "a", "b", "b"], "item": ["q1", "q2"] * 2,
                             "attempt": ["west drawer", "Paris", "east drawer", "Rome"]})
    scored = score_items(items, attempts)
    path = tmp_path / f"scored{suffix}"
    write_scored(scored, str(path))
    table = system_table(read_scored(path), resamples=100, seed=0).set_index(["system", "rule"])
    assert table.equals(system_table(scored, resamples=100, seed=0).set_index(["system", "rule"]))
    assert table.loc[("a", "checklist_full_match"), ["items", "excluded", "mean"]].tolist() == [
        1, 1, 1.0]
    assert table.loc[("b", "normalized_match"), ["items", "mean"]].tolist() == [2, 0.0]


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


# --- the command -------------------------------------------------------------------------------
def test_too_many_resamples_is_a_usage_error_naming_the_limit():
    path = write("s.csv", "\n".join(SCORED) + "\n")
    with pytest.raises(UsageError) as caught:
        summarize_command(path, rules=RULES, resamples=1_000_000_000)
    assert str(caught.value).startswith(
        f"'resamples' must be at most {MAX_RESAMPLES:,} (got 1,000,000,000): ")


def test_the_paired_footer_names_the_unit_the_difference_is_over(scored):
    """Failure 7 of issue 21: on the README's example (one item) `summarize --paired` said
    "on the items both answered" though the unit is the attempt."""
    from recallscore_nb.analysis.summary import paired_footer, summary_tables

    _, _, pairs = summary_tables(scored, by="system", rules=["literal_match"],
                                 paired=("sys-a", "sys-c"), resamples=50, seed=1)
    [line] = [line for line in paired_footer(pairs) if line.startswith("difference")]
    assert line.startswith("difference = sys-a - sys-c over their attempts (24 and 24) at the one "
                           "item both answered: the unit is the attempt")
    assert "items both answered;" not in line
