"""Jupyter notebooks: cells as one virtual module, magics masked, cell positions, layout-preserving writes."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spmdfix import notebook
from spmdfix.cli import main

IMPORTS = [
    "%matplotlib inline\n",
    "import jax\n",
    "import numpy as np\n",
    "from jax.sharding import Mesh, PartitionSpec as P\n",
    "mesh = Mesh(np.array(jax.devices()).reshape(8), ('i',))",
]
SHARDED = [
    "def f(x):\n",
    "    !echo hi\n",
    "    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)",
]
VMAP = "ys = jax.vmap(f, spmd_axis_name='i')(xs)"
OUTPUT = {"output_type": "stream", "name": "stdout", "text": ["hi\n"]}


def make(sources: list, indent: int | None = 1, language: str = "python", final_newline: bool = True) -> str:
    cells: list[dict] = [{"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "text"]}]
    for i, source in enumerate(sources):
        cells.append(
            {"cell_type": "code", "execution_count": i, "metadata": {"tags": []}, "outputs": [OUTPUT], "source": source}
        )
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "K", "language": language, "name": "k"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, indent=indent, ensure_ascii=False) + ("\n" if final_newline else "")


STANDARD = [IMPORTS, SHARDED, "%%bash\nx = 1\n", VMAP]  # cells 2..5; cell 4 is a %% cell


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_virtual_module_masks_magics_with_same_length_placeholders() -> None:
    nb = notebook.parse(make(STANDARD))
    assert [c.number for c in nb.cells] == [2, 3, 4, 5]
    first, second, magic_cell, _ = nb.cells
    assert first.analysed.startswith("0#################\nimport jax\n")
    assert len(first.analysed) == len(first.text)
    assert second.analysed.splitlines()[1] == "    0#######"
    assert magic_cell.skipped == "cell magic" and magic_cell.analysed == "#%bash\n# = 1\n"
    virtual = notebook.virtual_source(nb)
    assert virtual.splitlines()[0] == "# %% [spmdfix cell 2]"
    index = notebook.cell_index(virtual)
    assert index.marker_rows == (1, 7, 11, 14) and index.numbers == (2, 3, 4, 5)
    assert index.locate(3) == (2, 2) and index.locate(10) == (3, 3) and index.locate(15) == (5, 1)


def test_check_reports_cell_positions(work: Path) -> None:
    (work / "nb.ipynb").write_text(make(STANDARD))
    result = run("check", "nb.ipynb")
    assert result.exit_code == 1
    assert "nb.ipynb:cell 3:3:65: SPMD001" in result.stdout
    assert "nb.ipynb:cell 3:3:83: SPMD002" in result.stdout
    assert "    1. nb.ipynb:cell 5:1:33: `spmd_axis_name`" in result.stdout  # the argument, in another cell
    records = json.loads(run("check", "--output-format", "json", "nb.ipynb").stdout)
    first = records[0]
    assert first["cell"] == 3 and first["location"] == {"row": 3, "column": 65} and first["noqa_row"] == 3
    assert first["filename"] == str(work / "nb.ipynb")
    edit_cells = {e["location"]["row"] for e in first["fix"]["edits"]}
    assert edit_cells == {5, 1}  # the mesh (cell 2, row 5) and the vmap (cell 5, row 1)


def test_reasons_name_a_call_by_its_cell_and_line(work: Path) -> None:
    """A fix's reason naming a call of the vmapped function says where the reader sees it (`nb.ipynb cell 5 line 2`),
    not the line of the module the code cells are joined into (newuser10: "the call at line 14")."""
    mesh = "mesh = jax.make_mesh((2, 4), ('i', 'model'))"
    vmap = "xs = np.ones((6, 8))\nys = jax.vmap(f, spmd_axis_name='i')(xs)"
    (work / "nb.ipynb").write_text(make([[*IMPORTS[:-1], mesh], SHARDED, "%%bash\nx = 1\n", vmap]))
    result = run("check", "--show-fixes", "nb.ipynb")
    assert "rename: the call at nb.ipynb cell 5 line 2 passes a batch of 6, not divisible by 4 (`'model'`)" in result.stdout
    assert "the call at line" not in result.stdout


def test_fix_rewrites_only_changed_cells_and_keeps_layout(work: Path) -> None:
    original = make(STANDARD)
    (work / "nb.ipynb").write_text(original)
    result = run("fix", "nb.ipynb")
    assert result.exit_code == 0, result.output
    text = (work / "nb.ipynb").read_text()
    new, old = json.loads(text), json.loads(original)
    assert new["cells"][1]["source"][0] == "%matplotlib inline\n"
    assert new["cells"][1]["source"][-1] == "mesh = Mesh(np.array(jax.devices()).reshape(1, 8), ('batch', 'i'))"
    assert new["cells"][4]["source"] == "ys = jax.vmap(f, spmd_axis_name='batch')(xs)"  # string form kept
    assert new["cells"][2] == old["cells"][2] and new["cells"][3] == old["cells"][3]
    assert all(c.get("outputs", [OUTPUT]) == [OUTPUT] for c in new["cells"])
    assert text == make(
        [IMPORTS[:-1] + [new["cells"][1]["source"][-1]], SHARDED, "%%bash\nx = 1\n", new["cells"][4]["source"]]
    )
    assert run("check", "nb.ipynb").exit_code == 0


@pytest.mark.parametrize(("indent", "final_newline"), [(2, True), (None, False), (1, False)])
def test_layout_is_detected_and_kept(work: Path, indent: int | None, final_newline: bool) -> None:
    (work / "nb.ipynb").write_text(make(STANDARD, indent=indent, final_newline=final_newline))
    nb = notebook.parse((work / "nb.ipynb").read_text())
    assert nb.layout.indent == indent and nb.layout.final_newline == final_newline
    assert notebook.layout_kept(nb)
    run("fix", "nb.ipynb")
    text = (work / "nb.ipynb").read_text()
    assert text.endswith("\n") == final_newline
    sources = [json.loads(text)["cells"][i]["source"] for i in range(1, 5)]
    assert sources[3] == "ys = jax.vmap(f, spmd_axis_name='batch')(xs)"
    assert text == make(sources, indent=indent, final_newline=final_newline)


def test_fix_diff_on_a_notebook_is_a_json_patch(work: Path) -> None:
    (work / "nb.ipynb").write_text(make(STANDARD))
    result = run("fix", "--diff", "nb.ipynb")
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/nb.ipynb\n+++ b/nb.ipynb\n")
    assert '+   "source": "ys = jax.vmap(f, spmd_axis_name=\'batch\')(xs)"\n' in result.stdout


def test_cell_that_does_not_parse_is_reported_and_the_rest_analysed(work: Path) -> None:
    (work / "nb.ipynb").write_text(make([IMPORTS, SHARDED, "x = = 1\n", VMAP]))
    result = run("check", "nb.ipynb")
    assert "nb.ipynb:cell 4:1:5: SPMD900" in result.stdout
    assert "nb.ipynb:cell 3:3:65: SPMD001" in result.stdout
    run("fix", "nb.ipynb")
    assert json.loads((work / "nb.ipynb").read_text())["cells"][3]["source"] == "x = = 1\n"


def test_noqa_in_a_cell_and_add_noqa(work: Path) -> None:
    sharded = SHARDED[:-1] + [SHARDED[-1] + "  # noqa: SPMD001"]
    (work / "nb.ipynb").write_text(make([IMPORTS, sharded, VMAP]))
    assert [r["code"] for r in json.loads(run("check", "--output-format", "json", "nb.ipynb").stdout)] == ["SPMD002"]
    assert run("check", "--add-noqa", "nb.ipynb").exit_code == 0
    source = json.loads((work / "nb.ipynb").read_text())["cells"][2]["source"]
    assert source[-1].endswith("  # noqa: SPMD001, SPMD002") and source[1] == "    !echo hi\n"
    assert run("check", "nb.ipynb").exit_code == 0


def test_other_languages_are_skipped_and_bad_json_is_unreadable(work: Path) -> None:
    (work / "r.ipynb").write_text(make([VMAP], language="R"))
    (work / "bad.ipynb").write_text('{"cells": [')
    (work / "empty.ipynb").write_text("")
    result = run("check", ".")
    assert "r.ipynb: skipped: not a Python notebook (language 'r')" in result.stderr
    assert "bad.ipynb:1:1: SPMD901 cannot read the notebook: not valid JSON" in result.stdout
    assert "empty.ipynb" not in result.output
    assert result.exit_code == 1


def test_render_refuses_when_a_masked_line_is_lost() -> None:
    nb = notebook.parse(make([IMPORTS]))
    virtual = notebook.virtual_source(nb).replace("0#################\n", "")
    with pytest.raises(notebook.NotebookError, match="masked magic line"):
        notebook.render(nb, virtual)
    assert notebook.render(nb, notebook.virtual_source(nb)) == nb.text


def test_escaped_non_ascii_stays_escaped_and_a_changed_layout_is_noted(work: Path) -> None:
    text = make([IMPORTS, SHARDED, ["# caf\u00e9\n", VMAP]]).replace("caf\u00e9", "caf\\u00e9")
    assert text.isascii()
    (work / "nb.ipynb").write_text(text)
    assert run("fix", "nb.ipynb").exit_code == 0
    fixed = (work / "nb.ipynb").read_text()
    assert fixed.isascii() and "caf\\u00e9" in fixed and "'batch'" in fixed
    odd = make([IMPORTS, SHARDED, VMAP]).replace('"nbformat_minor": 5', '"nbformat_minor": 5e0')
    (work / "odd.ipynb").write_text(odd)
    result = run("fix", "odd.ipynb")
    assert "odd.ipynb: note: the notebook's JSON layout could not be reproduced exactly" in result.stderr
    assert json.loads((work / "odd.ipynb").read_text())["nbformat_minor"] == 5.0


# --- machine output of a notebook: every position names its cell -----------------------------------------


def _cell_text(nb_text: str, cell: int) -> list[str]:
    """The lines of a notebook cell (1-based, counting every cell as the reports do)."""
    source = json.loads(nb_text)["cells"][cell - 1]["source"]
    return "".join(source).splitlines() if isinstance(source, list) else source.splitlines()


def _at(nb_text: str, item: dict) -> str:
    """The text a cell position points at: from its column to the end column on its row."""
    line = _cell_text(nb_text, item["cell"])[item["location"]["row"] - 1]
    return line[item["location"]["column"] - 1 : item["end_location"]["column"] - 1]


def test_json_names_the_cell_of_every_related_place_chain_step_and_edit(work: Path) -> None:
    text = make(STANDARD)
    (work / "nb.ipynb").write_text(text)
    records = json.loads(run("check", "--output-format", "json", "nb.ipynb").stdout)
    first = records[0]
    # Each position, read back from the .ipynb through its cell, is the text it names.
    assert (first["cell"], _at(text, first)) == (3, "'i'")
    assert [(r["cell"], _at(text, r)) for r in first["related"]] == [
        (5, "'i'"),  # spmd_axis_name='i' in the vmap's cell
        (3, _at(text, first["related"][1])),
    ]
    assert _at(text, first["related"][1]).startswith("jax.shard_map(")
    assert [(s["cell"], s["message"]) for s in first["chain"]] == [
        (5, "`spmd_axis_name` `'i'` given here"),
        (3, "shard_map applied here"),
        (3, "the finding (SPMD001)"),
    ]
    edits = first["fix"]["edits"]  # add-axis: the mesh in cell 2, spmd_axis_name in cell 5
    assert [(e["cell"], _at(text, e), e["content"]) for e in edits] == [
        (2, "", "1, "),
        (2, "i',", "batch', 'i'"),
        (5, "i", "batch"),
    ]


def test_github_and_sarif_put_notebook_positions_where_the_format_can_point(work: Path) -> None:
    (work / "nb.ipynb").write_text(make(STANDARD))
    annotations = run("check", "--output-format", "github", "nb.ipynb").stdout.splitlines()
    assert annotations[0].startswith(
        "::error title=spmdfix (SPMD001),file=nb.ipynb,line=1,col=1,endLine=1,endColumn=1::cell 3:3:65: vmap "
    )
    log = json.loads(run("check", "--output-format", "sarif", "nb.ipynb").stdout)
    result = log["runs"][0]["results"][0]
    assert result["message"]["text"].startswith("cell 3:3:65: ")
    assert result["locations"][0]["properties"] == {"cell": 3, "row": 3, "column": 65}
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1
    }
    assert result["relatedLocations"][0]["properties"] == {"cell": 5, "row": 1, "column": 33}
    steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["properties"]["cell"] for s in steps] == [5, 3, 3]
    # Fixes of cells cannot be replacements of the .ipynb text: left out, saying so.
    assert "fixes" not in result and "spmdfix fix" in result["properties"]["fixes"]


def test_interactive_shows_the_cells_as_written(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spmdfix.cli.terminal as cli_terminal

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (work / "nb.ipynb").write_text(make(STANDARD))
    result = CliRunner().invoke(main, ["fix", "--interactive", "nb.ipynb"], input="y\n")
    diff = result.stdout.split("Apply this fix?")[0]
    # The hunks hold a masked line and a `%%` cell: both shown as the user wrote them.
    assert "     !echo hi\n" in diff and " %%bash\n x = 1\n" in diff
    assert "0####" not in result.stdout and "#%time" not in result.stdout
    # the finding the fix is for, named by its cell as `check` names it
    assert diff.startswith("This fix is for:\n  nb.ipynb:cell 3:3:")
    assert "+mesh = Mesh(np.array(jax.devices()).reshape(1, 8), ('batch', 'i'))" in diff
    assert json.loads((work / "nb.ipynb").read_text())["cells"][1]["source"][0] == "%matplotlib inline\n"
    # The accepted fix is written into the notebook (it was not: `write_source` was not imported, e3d0839).
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "('batch', 'i')" in (work / "nb.ipynb").read_text()


def _imported_layers(work: Path) -> None:
    """A project whose notebook's vmap reaches a shard_map of layers.py (its mesh built there)."""
    (work / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (work / "layers.py").write_text(
        "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(8), ('i',))\n\n\n"
        "def f(x):\n"
        "    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)\n"
    )
    (work / "nb.ipynb").write_text(make([["%matplotlib inline\n", "import jax\n", "from layers import f"], VMAP]))


def test_a_notebook_is_offered_only_the_fixes_it_can_apply_alone(work: Path) -> None:
    """A notebook is fixed alone: the fixes of its findings that edit another module (add-axis of layers.py's
    mesh, a strip of its specs) are not offered, saying why, and its next fix is the one `check` marks and
    `fix` applies (newuser7's trial: `check` said "2 fixable with `spmdfix fix`", `fix nb.ipynb` applied
    none and said nothing)."""
    _imported_layers(work)
    shown = run("check", "--show-fixes", "nb.ipynb").stdout
    assert "Found 2 errors. [*] 2 fixable with `spmdfix fix`." in shown
    assert "= fix [safe] drop-spmd-axis (auto):" in shown
    assert (
        "= not offered: add-axis: it edits layers.py, and a notebook is fixed alone (nothing imports it): no fix "
        "of a notebook's finding edits another module"
    ) in shown
    assert "= not offered: strip: it edits layers.py, and a notebook is fixed alone" in shown
    before = (work / "layers.py").read_text()
    fixed = run("fix", "nb.ipynb")
    assert fixed.exit_code == 0, fixed.output
    assert "fixes applied: drop-spmd-axis 1; 0 findings left" in fixed.output
    assert (work / "layers.py").read_text() == before
    assert json.loads((work / "nb.ipynb").read_text())["cells"][2]["source"] == "ys = jax.vmap(f)(xs)"
    assert run("check", "nb.ipynb").stdout == "All checks passed!\n"


def test_interactive_offers_a_notebook_the_fix_of_a_finding_in_a_module_it_imports(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`fix --interactive nb.ipynb` follows the notebook's imports as `fix` does (newuser10's trial: the
    notebook was analysed without the project index, so its vmap into layers.py's shard_map was never offered
    and the run said `0 findings left` while `check` reported 2 and JAX raised)."""
    import spmdfix.cli.terminal as cli_terminal

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    _imported_layers(work)
    result = CliRunner().invoke(main, ["fix", "--interactive", "nb.ipynb"], input="y\n")
    assert result.stdout.startswith("This fix is for:\n  layers.py:9:"), result.output
    assert "+ys = jax.vmap(f)(xs)" in result.stdout
    assert "1 file changed, 1 fix applied, 0 findings left." in result.output
    assert json.loads((work / "nb.ipynb").read_text())["cells"][2]["source"] == "ys = jax.vmap(f)(xs)"
    assert run("check", "nb.ipynb").stdout == "All checks passed!\n"


def test_interactive_counts_a_notebook_finding_it_left_in_a_module(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused, the notebook's finding in layers.py is left and counted (it was counted as 0)."""
    import spmdfix.cli.terminal as cli_terminal

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    _imported_layers(work)
    before = (work / "nb.ipynb").read_text()
    result = CliRunner().invoke(main, ["fix", "--interactive", "nb.ipynb"], input="n\n")
    assert "0 files changed, 0 fixes applied, 2 findings left." in result.output, result.output
    assert result.exit_code == 1
    assert (work / "nb.ipynb").read_text() == before


def test_a_finding_in_an_imported_module_keeps_its_own_place_in_every_format(work: Path) -> None:
    """A notebook's vmap reaching a shard_map of a module it imports: the finding is that module's, at its row
    (newuser7's trial: JSON gave it the notebook's cell and rows, SARIF and GitHub put it at line 1 of the
    module); the vmap's related place in the notebook gets its cell."""
    _imported_layers(work)
    records = json.loads(run("check", "--output-format", "json", "nb.ipynb").stdout)
    assert [(Path(r["filename"]).name, r["location"]["row"], "cell" in r, r["noqa_row"]) for r in records] == [
        ("layers.py", 9, False, 9),
        ("layers.py", 9, False, 9),
    ]
    given = records[0]["related"][0]
    assert Path(given["filename"]).name == "nb.ipynb" and given["cell"] == 3 and given["location"]["row"] == 1
    github = run("check", "--output-format", "github", "nb.ipynb").stdout
    assert github.count("file=layers.py,line=9,col=") == 2 and "line=1," not in github
    sarif = json.loads(run("check", "--output-format", "sarif", "nb.ipynb").stdout)
    regions = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in sarif["runs"][0]["results"]]
    assert regions == [9, 9]


def test_sarif_leaves_out_a_fix_that_edits_a_notebook_also_for_a_finding_in_a_module(work: Path) -> None:
    """A finding in layers.py from a notebook's vmap: its fix (drop-spmd-axis) edits the notebook's cell, at
    cell-relative rows that a SARIF replacement would apply to the .ipynb JSON text (newuser8's trial: a
    replacement at line 2, columns 54-75 of `notebooks/ensemble.ipynb`, inside `"cells": [`). Left out as a
    notebook finding's fixes are, saying so; JSON keeps the fix with its cell."""
    _imported_layers(work)
    records = json.loads(run("check", "--output-format", "json", "nb.ipynb").stdout)
    assert records[0]["fix"]["transform"] == "drop-spmd-axis" and records[0]["fix"]["edits"][0]["cell"] == 3
    sarif = json.loads(run("check", "--output-format", "sarif", "nb.ipynb").stdout)
    for result in sarif["runs"][0]["results"]:
        uris = {c["artifactLocation"]["uri"] for f in result.get("fixes", ()) for c in f["artifactChanges"]}
        assert "nb.ipynb" not in uris, result["fixes"]
        assert "spmdfix fix" in result["properties"]["fixes"]


def test_fix_points_at_the_notebook_whose_findings_it_left_in_an_imported_module(work: Path) -> None:
    """`fix` says where its findings are left and which check shows them: for a notebook's finding in a module
    it imports, that module's check does not (it does not analyse notebooks), so the notebook is named too
    (newuser7's trial: "4 findings left in src/vitax/model.py (`spmdfix check src/vitax/model.py` shows them)",
    which showed 2)."""
    _imported_layers(work)
    # an Explicit mesh: no fix within the notebook is safe (drop-spmd-axis is not offered there)
    layers = (work / "layers.py").read_text().replace("Mesh(np.array(jax.devices()).reshape(8), ('i',))", "jax.make_mesh((8,), ('i',))")
    (work / "layers.py").write_text(layers)
    fixed = run("fix", ".")
    assert fixed.exit_code == 1
    assert "2 findings left in layers.py (`spmdfix check layers.py nb.ipynb` shows them)" in fixed.output
    shown = run("check", "--output-format", "concise", "layers.py", "nb.ipynb").stdout
    assert shown.count("layers.py:9:") == 2


def test_fix_counts_a_notebooks_findings_that_a_fix_of_another_file_removed(work: Path) -> None:
    """A notebook and a module whose vmaps reach the same shard_map of layers.py: the module's strip edits
    layers.py and so removes the notebook's findings there too (the notebook is fixed alone, against
    layers.py as it was on disk). `fix` counts what `check` of the fixed files reports (newuser11's trial,
    finding 5: "4 findings left in src/pkg/model.py (`spmdfix check src/pkg/model.py explore.ipynb` shows
    them)", and that check said "All checks passed!")."""
    _imported_layers(work)
    (work / "main.py").write_text("import jax\nfrom layers import f\n\n\ndef g(xs):\n    return jax.vmap(f, spmd_axis_name='i')(xs)\n")
    fixed = run("fix", "--unsafe-fixes", "--strategy", "strip", ".")
    assert "layers.py: changed by a fix of main.py" in fixed.output
    assert "in_specs=P(None)" in (work / "layers.py").read_text()
    checked = run("check", ".")
    assert checked.exit_code == 0 and "All checks passed!" in checked.output
    assert "fixes applied: strip 1; 0 findings left" in fixed.output, fixed.output
    assert fixed.exit_code == 0


@pytest.mark.parametrize("magic", ["%%time", "%%timeit -n 1", "%%capture out", "%%prun", "%%debug"])
def test_a_cell_magic_running_its_body_is_analysed_as_code(magic: str) -> None:
    """IPython runs the body of these cell magics as Python in the notebook's namespace: the cell is analysed
    with its first line masked as a line magic is (same length), and put back as written (breaker19 a54, a55:
    a `%%time` cell reading the mesh was left out of add-axis's judgement)."""
    nb = notebook.parse(make([f"{magic}\nx = 1\n"]))
    (cell,) = nb.cells
    assert cell.skipped == ""
    assert cell.analysed == "0" + "#" * (len(magic) - 1) + "\nx = 1\n"
    assert notebook.as_written(nb, notebook.virtual_source(nb)).endswith(f"{magic}\nx = 1\n")


def test_a_cell_magic_running_its_body_is_judged_for_reads_of_the_mesh(tmp_path: Path) -> None:
    from test_judged_files import NOTEBOOK_READER, _add_axis, notebook as make_notebook  # (the standard layout)

    timed = make_notebook(("code", "from pkg.config import MESH\n"), ("code", "%%time\ngroups = MESH.devices.shape[0]\n"))
    assert NOTEBOOK_READER  # (the layout module's own reader is a plain cell)
    fix = _add_axis(tmp_path, {"notebooks/timed.ipynb": timed})
    assert fix.applicability.name == "UNSAFE", fix.reason
    assert "notebooks/timed.ipynb cell 2 line 2)" in fix.reason, fix.reason


@pytest.mark.parametrize(
    ("line", "analysed"),
    [
        ("%time groups = MESH.devices.shape[0]", "if 1: groups = MESH.devices.shape[0]"),
        ("%timeit y = f(x)", "if 1:   y = f(x)"),
        ("    %prun run(x)", "    if 1: run(x)"),
        ("%timeit -n 3 f(x)", "0################"),  # (options first: masked whole)
        ("%time x = (", "0##########"),  # (no statement alone: masked whole)
        ("%matplotlib inline", "0#################"),
    ],
)
def test_a_line_magic_running_a_statement_keeps_it_at_its_columns(line: str, analysed: str) -> None:
    """`%time STMT` runs STMT in the notebook's namespace: it is analysed behind `if 1:` padded to the magic's
    length, so every column stays right, and put back as written (breaker19 a56: masked whole, a read of the
    mesh there was not judged)."""
    text = f"if True:\n{line}\n" if line.startswith(" ") else f"{line}\n"
    nb = notebook.parse(make([text]))
    (cell,) = nb.cells
    assert cell.analysed.splitlines()[-1] == analysed and len(analysed) == len(line)
    ast.parse(cell.analysed)
    assert notebook.as_written(nb, notebook.virtual_source(nb)).endswith(text)


def test_a_line_magic_statement_is_judged_for_reads_of_the_mesh(tmp_path: Path) -> None:
    from test_judged_files import _add_axis, notebook as make_notebook  # (the standard layout)

    timed = make_notebook(("code", "from pkg.config import MESH\n"), ("code", "%time groups = MESH.devices.shape[0]\n"))
    fix = _add_axis(tmp_path, {"notebooks/timed.ipynb": timed})
    assert fix.applicability.name == "UNSAFE", fix.reason
    assert "notebooks/timed.ipynb cell 2 line 1)" in fix.reason, fix.reason
