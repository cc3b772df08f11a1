"""The one reader of a notebook's ``parameters`` cell: declarations, defaults, help, checks."""

from __future__ import annotations

import pytest

from recallscore_nb.core.errors import UsageError
from recallscore_nb.workbook.parameters import (
    Parameter,
    check_parameters,
    parse_parameters,
    with_default,
)


def test_a_hash_inside_a_string_default_is_not_the_help_comment():
    params = parse_parameters('label: str = "a#b"  # the label\nseed: int = 3\n')
    assert [(p.name, p.default, p.help) for p in params.values()] == [
        ("label", "a#b", "the label"), ("seed", 3, "")]


def test_comments_and_blank_lines_may_stand_between_declarations():
    source = "# the inputs\n\nbenchmark_path: str = ''  # empty: shipped\n\n# the rest\nratio: float = 0.5\n"
    assert list(parse_parameters(source)) == ["benchmark_path", "ratio"]
    assert parse_parameters(source)["ratio"].type is float


@pytest.mark.parametrize("line", [
    "seed = 3",                      # no type
    "seed: list = []",               # a type a command line cannot give
    "seed: int = 1 + 2",             # not a literal
    "print('hello')",                # code
    "seed: int",                     # no default
])
def test_anything_but_a_declaration_is_refused_naming_the_line(line):
    with pytest.raises(UsageError) as caught:
        parse_parameters(f"ok: int = 1\n{line}\n", "nb.ipynb")
    assert str(caught.value) == (f"nb.ipynb: parameters cell line is not 'name: type = default  "
                                 f"# help': {line!r}")


def test_with_default_rewrites_only_the_value():
    source = 'output_dir: str = ""  # empty: reports/\nseed: int = 3\n'
    assert with_default(source, "output_dir", '"scratch/05"') == (
        'output_dir: str = "scratch/05"  # empty: reports/\nseed: int = 3\n')
    with pytest.raises(UsageError, match="declares no 'seed: str'"):
        with_default(source, "seed", "4")


@pytest.mark.parametrize(("kind", "value", "ok"), [
    (int, 3, True), (int, True, False), (int, 3.0, False), (float, 3, True), (float, True, False),
    (str, "x", True), (str, 3, False), (bool, False, True), (bool, 0, False),
])
def test_accepts_follows_the_declared_type(kind, value, ok):
    assert Parameter("p", kind).accepts(value) is ok


def test_the_session_checks_the_kernels_values_with_the_same_declarations():
    namespace = {"__annotations__": {"ratio": float, "seed": int}, "ratio": 1, "seed": 2}
    assert check_parameters(namespace, history=[]) == {"ratio": 1, "seed": 2}
    with pytest.raises(UsageError, match=r"parameter 'seed' must be int \(got 2.0 that is a float\)"):
        check_parameters({**namespace, "seed": 2.0}, history=[])
