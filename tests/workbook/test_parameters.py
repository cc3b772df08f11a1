"""The one reader of a notebook's ``parameters`` cell: declarations, defaults, help, checks."""

from __future__ import annotations

import os

import pytest

from recallscore_nb.core.errors import UsageError
from recallscore_nb.workbook.parameters import (
    Parameter,
    check_parameters,
    parse_parameters,
    with_default,
)
from recallscore_nb.workbook.session import start_notebook
from tests.workbook.books import notebook


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


# --- the check cell's rules, without a kernel ----------------------------------------------------
DECLARED = {"__annotations__": {"output_dir": str, "resamples": int}, "output_dir": "",
            "resamples": 2000}


def test_leftovers_of_an_earlier_run_are_not_parameters():
    namespace = DECLARED | {"nb": object(), "table": [1, 2], "x": 3}
    assert check_parameters(namespace, history=["", "output_dir: str = ''", "nb = start()"]) == {
        "output_dir": "", "resamples": 2000}


@pytest.mark.parametrize("injected, message", [
    ("# Parameters\nresample = 10\n", "unknown parameter 'resample'; this notebook declares: "
                                      "output_dir, resamples; did you mean 'resamples'?"),
    ("# Parameters\nget_ipython = 1\n", "unknown parameter 'get_ipython'; this notebook "
                                       "declares: output_dir, resamples"),
    ("# Parameters\nimport os\n", "the injected parameters cell holds code that is not "
                                  "'name = value': import os"),
    ("# Parameters\nresamples = int('5')\n", "the injected parameters cell holds code that is "
                                             "not 'name = value': resamples = int('5')"),
])
def test_what_papermill_injected_must_assign_declared_names_to_values(injected, message):
    with pytest.raises(UsageError) as caught:
        check_parameters(dict(DECLARED), history=["", "output_dir: str = ''", injected, "nb = …"])
    assert str(caught.value) == message


def test_a_well_formed_injection_is_accepted():
    injected = '# Parameters\nresamples = 500\noutput_dir = "x"\n'
    namespace = DECLARED | {"resamples": 500, "output_dir": "x"}
    assert check_parameters(namespace, history=["", "...", injected, "nb = …"]) == {
        "output_dir": "x", "resamples": 500}
