"""The gaming families: every record complete, the answers free of the item's own references
where the family says so, the layouts varied, the quantity changes exact."""

from __future__ import annotations

import numpy as np
import pytest

from recallscore_nb.analysis.gaming_families import (GAMING_FAMILIES, Draw, changed_quantity,
                                                     clashes, family_named, words)
from recallscore_nb.core.errors import UsageError

POOL = [("Paris", "Lutetia"), ("Lyon",), ("Nice",), ("Oslo",), ("Rome",), ("Bern",),
        ("Kyiv",), ("Riga",), ("Baku",), ("Lima",), ("Quito",), ("Accra",), ("Hanoi",),
        ("Paris Saint-Germain",), ("paris!",), ("Lutetia Parisiorum",), ("Minsk",), ("Sofia",)]


def draw(index=0, seed=0, question=None, pool=POOL):
    own = [frozenset(words(r)) for r in pool[index]]
    return Draw(index, pool[index], question, pool, own, np.random.default_rng(seed))


def test_every_family_is_one_complete_record_with_a_unique_name():
    names = [f.name for f in GAMING_FAMILIES]
    assert len(set(names)) == len(names) >= 8
    for family in GAMING_FAMILIES:
        assert family.description and "\n" not in family.description
        assert family.example and callable(family.build)


def test_the_clash_check_reads_words_case_accents_and_punctuation_aside():
    own = [frozenset(words("Wilhelm Conrad Röntgen"))]
    assert clashes("ROENTGEN", own) is False  # another spelling is another word
    assert clashes("röntgen!", own) and clashes("Conrad Röntgen", own)
    assert clashes("Wilhelm Conrad Rontgen, physicist", own)  # a superset
    assert not clashes("Marie Curie", own)


@pytest.mark.parametrize("name", ["list", "hedge", "dump", "other-item"])
def test_no_other_reference_drawn_could_pass_for_the_items_own(name):
    family = family_named([name])[0]
    for seed in range(200):
        answer = family.build(draw(seed=seed, pool=POOL + [(f"Town{i}",) for i in range(9)]))
        assert answer is not None
        lowered = answer.casefold()
        # Paris Saint-Germain, paris! and Lutetia Parisiorum clash with Paris / Lutetia
        assert "saint" not in lowered and "parisiorum" not in lowered
        if name == "other-item":
            assert "paris" not in lowered and "lutetia" not in lowered
        else:
            assert lowered.count("paris") + lowered.count("lutetia") == 1


def test_the_list_layouts_and_sizes_vary_and_r_moves():
    answers = [family_named("list")[0].build(draw(seed=s)) for s in range(300)]
    assert any("\n- " in a for a in answers) and any(a.startswith("1. ") for a in answers)
    assert any(" and/or " in a for a in answers) and any(" / " in a for a in answers)
    assert any(a.startswith(("Paris", "Lutetia")) for a in answers)
    assert any(a.endswith(("Paris", "Lutetia")) for a in answers)
    assert any("Lutetia" in a for a in answers)  # R is sometimes another reference
    sizes = {len(a.replace(" and/or ", ",").replace(" or ", ",").split(",")) for a in answers
             if "\n" not in a and "/" not in a and ";" not in a and ". " not in a}
    assert sizes == {2, 3, 4, 5}


def test_a_dump_holds_nine_to_sixteen_answers():
    pool = POOL + [(f"Town{i}",) for i in range(30)]
    for seed in range(50):
        answer = family_named("dump")[0].build(draw(seed=seed, pool=pool))
        parts = answer.split("; ") if "; " in answer else answer.split(", ") \
            if ", " in answer else answer.split(" ")
        assert 9 <= len(parts) <= 16, answer


def test_too_few_other_references_give_nothing():
    pool = [("Paris",), ("Paris, France",)]
    assert family_named("dump")[0].build(draw(pool=pool)) is None
    assert family_named("hedge")[0].build(draw(pool=pool)) is None


def test_negation_denies_r_and_echo_needs_a_question():
    for seed in range(30):
        answer = family_named("negation")[0].build(draw(seed=seed))
        assert "Paris" in answer or "Lutetia" in answer
        assert any(w in answer.casefold() for w in ("not", "n't", "wrong", "anything but"))
    echo = family_named("echo")[0]
    assert echo.needs == "question" and echo.build(draw()) is None
    assert "capital of France" in echo.build(draw(question="What is the capital of France?"))


def test_a_refusal_is_never_empty_nor_a_reference():
    pool = [("Yes",), ("None",), ("Paris",)]
    for seed in range(100):
        answer = family_named("refusal")[0].build(draw(seed=seed, pool=pool))
        assert answer.strip() and answer != "Yes"


def test_quantity_changes_the_first_number_a_scale_or_a_unit():
    assert changed_quantity("1983") == ["19830", "1984", "1983 thousand", "1983 million",
                                        "1983 billion"]
    assert changed_quantity("100 °C") == ["1000 °C", "101 °C", "100 °F"]
    assert changed_quantity("about 2 billion people") == [
        "about 20 billion people", "about 3 billion people", "about 2 trillion people"]
    assert changed_quantity("twelve") == ["120", "thirteen", "twelve thousand",
                                          "twelve million", "twelve billion"]
    assert changed_quantity("Edward VIII") == [] and changed_quantity("1st Baronet") == []


def test_quantity_leaves_out_an_item_without_a_number_and_a_change_that_is_a_reference():
    quantity = family_named("quantity")[0]
    assert quantity.build(draw()) is None
    pool = [("1983", "1984", "19830"), ("x",)]
    answers = {quantity.build(draw(seed=s, pool=pool)) for s in range(40)}
    assert answers <= {"1983 thousand", "1983 million", "1983 billion", "1984 thousand",
                       "1984 million", "1984 billion", "198300", "1985", "19840",
                       "19830 thousand", "19830 million", "19830 billion", "19831"}
    assert "1984" not in answers


def test_an_unknown_family_names_the_known_ones():
    with pytest.raises(UsageError, match=r"unknown gaming family 'x' \(families: list, hedge"):
        family_named(["list", "x"])
    with pytest.raises(UsageError, match="at least one"):
        family_named([])
