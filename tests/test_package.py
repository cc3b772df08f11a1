"""The package as a whole: importing any of its modules leaves matplotlib as it was."""

from __future__ import annotations

import json
import subprocess
import sys

import matplotlib

EVERY_MODULE = """
import importlib, json, pkgutil
import matplotlib
matplotlib.use("pdf")                 # not what the package would pick
matplotlib.rcParams["font.size"] = 13.0  # a user's own setting
backend, before = matplotlib.get_backend(), {k: repr(v) for k, v in matplotlib.rcParams.items()}
import recallscore_nb
names = [m.name for m in pkgutil.walk_packages(recallscore_nb.__path__, "recallscore_nb.")
         if m.name != "recallscore_nb.__main__"]
for name in names:
    importlib.import_module(name)
after = {k: repr(v) for k, v in matplotlib.rcParams.items()}
print(json.dumps({"modules": names, "backend": [backend, matplotlib.get_backend()],
                  "changed": sorted(k for k in before.keys() | after.keys()
                                    if before.get(k) != after.get(k))}))
"""


def test_importing_every_module_leaves_the_backend_and_rcparams_alone():
    done = subprocess.run([sys.executable, "-c", EVERY_MODULE], capture_output=True, text=True,
                          check=True)
    found = json.loads(done.stdout)
    assert "recallscore_nb.render.figures" in found["modules"]
    assert "recallscore_nb.workbook.chapters.rule_figures" in found["modules"]
    assert found["backend"] == ["pdf", "pdf"]
    assert found["changed"] == []


def test_drawing_a_figure_applies_the_style_only_while_it_draws():
    from recallscore_nb.render.figures import figure_bytes
    from recallscore_nb.render.plots import label_figure

    import pandas as pd

    before = {k: repr(v) for k, v in matplotlib.rcParams.items()}
    counts = pd.DataFrame({"rule": ["literal"], "complete_pass": [1], "complete_total": [2],
                           "incomplete_pass": [0], "incomplete_total": [1], "unlabelled": [0]})
    fig = label_figure(counts)
    assert figure_bytes(fig, "svg").startswith(b"<?xml")
    assert fig.texts == [] and fig.axes[0].title.get_fontsize() == 9.0  # the shipped style's
    assert {k: repr(v) for k, v in matplotlib.rcParams.items()} == before
