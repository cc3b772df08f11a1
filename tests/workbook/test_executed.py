"""Executed notebooks as committed: papermill's volatile fields removed, the injected cell given
a fixed id, paths under the run's folders made relative, what the cells show left alone."""

from __future__ import annotations

import base64
import copy
import json

import nbformat

from recallscore_nb.workbook.executed import clean_executed, write_clean

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n/work/run/x").decode()  # a path inside binary data


def text(value) -> str:
    """A multiline field as text (nbformat stores it as a list of lines)."""
    return "".join(value) if isinstance(value, list) else value


def executed(run: str) -> dict:
    """What papermill writes for a two-cell notebook run into ``run`` with one parameter."""
    stamps = {"start_time": "2026-11-30T12:58:45.495965+00:00", "duration": 1.5,
              "end_time": "2026-11-30T12:58:46.992907+00:00", "exception": None}
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python", "version": "3.11.7"},
        "papermill": {**stamps, "input_path": f"{run}/notebooks/01_x.ipynb",
                      "output_path": f"{run}/out/.recallscore-run-abc/notebooks/01_x.ipynb",
                      "parameters": {"attempts_path": f"{run}/my.csv"}, "version": "2.7.0",
                      "default_parameters": {}, "environment_variables": {}},
    }
    injected = nbformat.v4.new_code_cell(f'# Parameters\nattempts_path = "{run}/my.csv"\n')
    injected.id = "6c8f852b"
    injected.metadata = {"tags": ["injected-parameters"]}
    shown = nbformat.v4.new_code_cell("nb.save('f', f)", execution_count=2)
    shown.id = "cell-02"
    shown.outputs = [nbformat.v4.new_output("execute_result", execution_count=2, data={
        "image/png": PNG, "text/plain": f"{run}/out/figures/01_x__f.png"})]
    for cell in (injected, shown):
        cell.metadata["execution"] = {"iopub.execute_input": "2026-11-30T12:58:46.077763Z"}
        cell.metadata["papermill"] = {**stamps, "status": "completed"}
    nb.cells = [injected, shown]
    return json.loads(nbformat.writes(nb))


def test_volatile_fields_go_and_the_rest_stays():
    node = clean_executed(executed("/work/run"), ["/work/run"])
    assert node["metadata"]["papermill"] == {"parameters": {"attempts_path": "my.csv"},
                                             "version": "2.7.0", "default_parameters": {},
                                             "environment_variables": {}}
    assert node["metadata"]["language_info"] == {"name": "python"}
    injected, shown = node["cells"]
    assert injected["id"] == "injected-parameters" and shown["id"] == "cell-02"
    for cell in node["cells"]:
        assert cell["metadata"]["papermill"] == {"status": "completed"}
        assert "execution" not in cell["metadata"]
    assert text(injected["source"]) == '# Parameters\nattempts_path = "my.csv"\n'
    data = shown["outputs"][0]["data"]
    assert data["image/png"] == PNG and text(data["text/plain"]) == "out/figures/01_x__f.png"


def test_the_same_notebook_run_anywhere_cleans_to_the_same_json():
    here, there = (clean_executed(executed(run), [run]) for run in ("/work/run", "/tmp/a/b"))
    assert here == there


def test_the_longest_folder_goes_first_and_the_filesystem_root_never():
    node = executed("/work/run")
    cleaned = clean_executed(copy.deepcopy(node), ["/", "/work", "/work/run"])
    assert text(cleaned["cells"][0]["source"]) == '# Parameters\nattempts_path = "my.csv"\n'
    untouched = clean_executed(copy.deepcopy(node), ["/"])
    assert untouched["cells"][0]["source"] == node["cells"][0]["source"]


def test_a_linked_folder_is_made_relative_by_either_spelling(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    node = clean_executed(executed(str(real)), [tmp_path / "link"])
    assert text(node["cells"][0]["source"]) == '# Parameters\nattempts_path = "my.csv"\n'


def test_write_clean_rewrites_a_valid_notebook_in_nbformats_layout(tmp_path):
    path = tmp_path / "01_x.ipynb"
    path.write_text(json.dumps(executed(str(tmp_path))), encoding="utf-8")
    write_clean(path, [tmp_path])
    text = path.read_text(encoding="utf-8")
    node = nbformat.reads(text, as_version=4)
    nbformat.validate(node)
    assert text == nbformat.writes(node) + "\n"
    assert str(tmp_path) not in text and "start_time" not in text
    write_clean(path, [tmp_path])
    assert path.read_text(encoding="utf-8") == text  # cleaning twice changes nothing


def lab_saved(node: dict) -> dict:
    """``node`` as JupyterLab saves it after Run All: its own kernel name, the kernel's full
    language info, the cells' view state and timings, metadata of other editors."""
    saved = copy.deepcopy(node)
    saved["metadata"]["kernelspec"]["display_name"] = "Python 3 (ipykernel)"
    saved["metadata"]["language_info"] |= {"version": "3.11.2"}  # the run's kernel rewrites it
    saved["metadata"]["vscode"] = {"interpreter": {"hash": "0f3c"}}
    for cell in saved["cells"]:
        cell["metadata"] |= {"scrolled": True, "collapsed": False, "jupyter": {"outputs_hidden": False},
                             "execution": {"iopub.status.idle": "2026-11-30T12:58:46"}}
    return saved


def test_a_notebook_lab_merely_saved_cleans_to_the_same_bytes():
    """Failure 2 of issue 21: a plain save in JupyterLab named the kernel `Python 3
    (ipykernel)`, which the executed copy kept, so `make reports` rewrote reports/."""
    node = executed("/work/run")
    plain = clean_executed(copy.deepcopy(node), ["/work/run"])
    assert clean_executed(lab_saved(node), ["/work/run"]) == plain
    assert plain["metadata"]["kernelspec"] == {"display_name": "Python 3", "language": "python",
                                               "name": "python3"}
    assert plain["cells"][0]["metadata"] == {"tags": ["injected-parameters"],
                                             "papermill": {"status": "completed"}}
