"""The runtime oracle: golden cases and safety demonstrations executed under JAX (CPU, 8 devices).

Golden runnable cases (case.toml has [runtime]): input.py fails the way JAX fails today (the recorded
message; or, with `input_wrong = true`, runs and returns a wrong result), expected.py runs and equals its
unsharded reference. Clean runnable cases run and match.
Safety demonstrations (safety/<name>/demo.py): the unsafe edit applied anyway computes different values or
raises, exactly as case.toml records. All programs run in one subprocess so jax is imported once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from golden import CORE_TRANSFORMS, ROOT, TRANSFORM_GROUPS, cases, tree_cases

pytestmark = pytest.mark.runtime

RUNNABLE = [c for c in cases() + tree_cases() if c.runtime is not None]
SAFETY = sorted((ROOT / "safety").glob("*/demo.py"))
ORACLE = Path(__file__).with_name("runtime_oracle.py")


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict]:
    files = [str(c.input) for c in RUNNABLE] + [str(c.expected) for c in RUNNABLE if c.group in TRANSFORM_GROUPS]
    files += [str(p) for p in SAFETY]
    proc = subprocess.run(
        [sys.executable, str(ORACLE), *files], capture_output=True, text=True, timeout=1800, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return {r["file"]: r for r in results}


def test_enough_runnable_cases() -> None:
    by_group = {g: sum(c.group == g for c in RUNNABLE) for g in TRANSFORM_GROUPS}
    assert sum(by_group[g] for g in CORE_TRANSFORMS) >= 24, by_group
    assert all(by_group[g] >= 8 for g in CORE_TRANSFORMS), by_group
    assert all(by_group[g] >= 3 for g in TRANSFORM_GROUPS), by_group


@pytest.mark.parametrize("case", RUNNABLE, ids=[c.test_id for c in RUNNABLE])
def test_golden_case_runs(case, outcomes) -> None:
    before = outcomes[str(case.input)]
    expected_error = case.runtime.get("input_error")
    if case.runtime.get("input_wrong"):
        # The input runs but computes the wrong result (e.g. a capture with in_specs=(), hazard H5).
        assert before["status"] == "differs", f"{case.id}: input.py was expected to run and differ: {before}"
    elif case.group in TRANSFORM_GROUPS or expected_error:
        assert before["status"] == "raised", f"{case.id}: input.py did not fail: {before}"
        assert expected_error and expected_error in before["error"], before["error"]
    else:
        assert before["status"] == "match", f"{case.id}: clean input does not run correctly: {before}"
    if case.group in TRANSFORM_GROUPS:
        after = outcomes[str(case.expected)]
        assert after["status"] == "match", f"{case.id}: fixed program is wrong: {after}"


@pytest.mark.parametrize("demo", SAFETY, ids=[p.parent.name for p in SAFETY])
def test_safety_demonstration(demo: Path, outcomes) -> None:
    config = tomllib.loads((demo.parent / "case.toml").read_text(encoding="utf-8"))
    got = outcomes[str(demo)]
    assert got["status"] == config["expect"].replace("raises", "raised"), got
    if config["expect"] == "raises":
        assert config["error"] in got["error"], got["error"]
