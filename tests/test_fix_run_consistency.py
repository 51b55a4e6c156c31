"""`spmdfix fix` over a package whose modules reach each other: what one file's fix changes is seen by the
analysis of the files that read it, within the same run (issue 11).

The first step of a fix run analyses every file against the files as they are on disk (one index per
process, `-j` workers each their own), so a fix of `pkg/layers.py` that strips the colliding spec was
unseen by the analysis of `pkg/pipeline.py`, whose findings were still counted as left. The run must end
at a fixed point: a check of its output finds nothing fixable and the count the fix run printed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spmdfix.cli import main

LAYERS = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


def _scale(v):
    return jnp.sin(v) * 2.0


def block(x):
    return jax.shard_map(_scale, mesh=mesh, in_specs=P('data', 'model'), out_specs=P('data', 'model'))(x)
"""

LOCAL_VMAP = """

def local(xs):
    return jax.vmap(block, spmd_axis_name='data')(xs)
"""


def _caller(name: str) -> str:
    return f"import jax\n\nfrom .layers import block\n\n\ndef {name}(xs):\n    return jax.vmap(block, spmd_axis_name='data')(xs)\n"


RUN = """\
import jax.numpy as jnp
import numpy as np

from pkg.pipeline import forward
from pkg.other import backward

xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
want = np.sin(np.asarray(xs)) * 2.0
for fn in (forward, backward):
    assert np.allclose(fn(xs), want, atol=1e-5), fn
print("ok")
"""


def _package(root: Path, local_vmap: bool) -> Path:
    """pkg/layers.py with the shard_map, pkg/pipeline.py and pkg/other.py each with a vmap reaching it;
    with `local_vmap`, layers.py has a colliding vmap of its own (its fix is a fix of the first step)."""
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "layers.py").write_text(LAYERS + (LOCAL_VMAP if local_vmap else ""))
    (root / "pkg" / "pipeline.py").write_text(_caller("forward"))
    (root / "pkg" / "other.py").write_text(_caller("backward"))
    (root / "run.py").write_text(RUN)
    return root


def _texts(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.py"))}


def _left(output: str) -> int:
    found = re.search(r"(\d+) findings? left", output) or re.search(r"; (\d+) findings?;", output)
    assert found, output
    return int(found.group(1))


CASES = [
    pytest.param(True, ["--strategy", "strip", "--unsafe-fixes"], id="local-strip-unsafe"),
    # (issue 20: pipeline.py's and other.py's vmaps of `block` run the shard_map without layers.py's vmap, so
    # the strip is unsafe since every module of the project is searched; these ran it as a safe fix before)
    pytest.param(True, ["--strategy", "strip", "--unsafe-fixes", "-j2"], id="local-strip-two-workers"),
    pytest.param(True, ["--unsafe-fixes"], id="local-add-axis"),
    pytest.param(False, ["--strategy", "strip", "--unsafe-fixes"], id="two-vmaps-strip-callee"),
    pytest.param(False, ["--unsafe-fixes"], id="two-vmaps-default"),
]


@pytest.mark.parametrize(("local_vmap", "flags"), CASES)
def test_fix_run_ends_at_a_fixed_point(tmp_path: Path, local_vmap: bool, flags: list[str]) -> None:
    root = _package(tmp_path / "proj", local_vmap)
    fixed = CliRunner().invoke(main, ["fix", *flags, str(root)])
    assert fixed.exit_code in (0, 1), fixed.output
    after = _texts(root)
    again = CliRunner().invoke(main, ["check", "--no-cache", *[f for f in flags if f == "--unsafe-fixes"], str(root)])
    assert _left(fixed.output) == _left(again.output), (fixed.output, again.output)
    assert "fixable with" not in again.output, again.output
    # A second fix run changes nothing: no file was left half-fixed by two inconsistent fixes.
    CliRunner().invoke(main, ["fix", *flags, str(root)])
    assert _texts(root) == after


def test_the_strip_of_the_first_step_is_seen_by_the_callers(tmp_path: Path) -> None:
    root = _package(tmp_path / "proj", local_vmap=True)
    fixed = CliRunner().invoke(main, ["fix", "--strategy", "strip", "--unsafe-fixes", str(root)])
    assert "P(None, 'model')" in (root / "pkg" / "layers.py").read_text()
    # pipeline.py and other.py were analysed against layers.py before its strip: their collision is gone.
    assert _left(fixed.output) == 0, fixed.output
    assert (root / "pkg" / "pipeline.py").read_text() == _caller("forward")


def test_the_strip_is_unsafe_while_other_modules_vmap_the_layer(tmp_path: Path) -> None:
    """Issue 20: layers.py's own vmap's strip edits `block`, which pipeline.py and other.py vmap too (each
    runs the shard_map without layers.py's vmap): without --unsafe-fixes nothing is stripped."""
    root = _package(tmp_path / "proj", local_vmap=True)
    before = _texts(root)
    fixed = CliRunner().invoke(main, ["fix", "--strategy", "strip", str(root)])
    assert _texts(root) == before, fixed.output
    shown = CliRunner().invoke(main, ["check", "--no-cache", "--show-fixes", str(root / "pkg" / "layers.py")]).output
    strips = [line for line in shown.splitlines() if "fix [" in line and "Strip" in line]
    named = ("pkg/pipeline.py line 7)", "pkg/other.py line 7)")
    assert strips and all("[unsafe]" in line and any(n in line for n in named) for line in strips), shown


@pytest.mark.runtime
@pytest.mark.parametrize(("local_vmap", "flags"), CASES)
def test_fixed_package_runs_under_jax(tmp_path: Path, local_vmap: bool, flags: list[str]) -> None:
    root = _package(tmp_path / "proj", local_vmap)
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8", "PYTHONPATH": str(root)}
    before = subprocess.run([sys.executable, "run.py"], check=False, cwd=root, env=env, capture_output=True, text=True)
    assert "vmap spmd_axis_name cannot appear in shard_map in_specs" in before.stderr
    CliRunner().invoke(main, ["fix", *flags, str(root)])
    after = subprocess.run([sys.executable, "run.py"], check=False, cwd=root, env=env, capture_output=True, text=True)
    assert after.returncode == 0 and after.stdout.strip() == "ok", after.stderr
