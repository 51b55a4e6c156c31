"""A shard_map body's own decorator is evaluated when its `def` runs, not traced in the body.

`@partial(jax.shard_map, mesh=MESH, ...)` with `MESH` imported from another module: the reach of the body
(`Reacher.reach_body`) walked the decorator's call as one of the body's calls and took the imported mesh for
"a function of another module the shard_map body calls", whose collectives it could not read. That SPMD910
record left every fix unsafe (safety/trials/newuser13, p1), while `jax.shard_map(body, mesh=MESH, ...)`, the
same program in the call form, got the safe fixes. A function of another module the body really calls is
still read, or recorded as not read (the last tests).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Applicability, Options

CONFIG = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\n"
    "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n"
)
TRAIN = (
    "import jax\n\nfrom pkg.model import block\n\n\n"
    "def forward(xs):\n    return jax.vmap(block, spmd_axis_name='data')(xs)\n"
)
SPECS = "in_specs=P('data'), out_specs=P('data')"
DECORATED = {
    "partial": f"@partial(jax.shard_map, mesh=MESH, {SPECS})\n",
    "call": f"@jax.shard_map(mesh=MESH, {SPECS})\n",
}


def _model(decorator: str, body: str = "b * 2.0") -> str:
    return (
        "from functools import partial\n\nimport jax\nfrom jax.sharding import PartitionSpec as P\n\n"
        f"from pkg import ops\nfrom pkg.config import MESH\n\n\n{decorator}def block(b):\n    return {body}\n"
    )


def _analyse(tmp_path: Path, model: str, ops: str = "def total(b):\n    return b\n"):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    (tmp_path / "pkg").mkdir()
    files = {"__init__.py": "", "config.py": CONFIG, "ops.py": ops, "model.py": model, "train.py": TRAIN}
    for name, text in files.items():
        (tmp_path / "pkg" / name).write_text(text)
    project_graph.forget_graphs()
    root = tmp_path.resolve()
    path = root / "pkg" / "train.py"
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(root))


@pytest.mark.parametrize("spelling", sorted(DECORATED))
def test_an_imported_mesh_in_the_body_decorator_is_no_callee(tmp_path: Path, spelling: str) -> None:
    result = _analyse(tmp_path, _model(DECORATED[spelling]))
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"]
    assert not result.unfollowed, [u.what for u in result.unfollowed]
    for finding in result.findings:
        drop = [fix for fix in finding.fixes if fix.title.startswith("Remove `spmd_axis_name`")]
        assert [fix.applicability for fix in drop] == [Applicability.SAFE], [fix.reason for fix in drop]


def test_a_function_of_another_module_the_body_calls_is_still_read(tmp_path: Path) -> None:
    ops = "import jax\n\n\ndef total(b):\n    return jax.lax.psum(b, 'data')\n"
    result = _analyse(tmp_path, _model(DECORATED["partial"], body="ops.total(b)"), ops)
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002", "SPMD004"]


def test_a_function_of_another_module_the_body_calls_is_still_not_read(tmp_path: Path) -> None:
    ops = "import jax\n\n\ndef total(b):\n    return jax.lax.psum(b, getattr(b, 'axis'))\n"
    result = _analyse(tmp_path, _model(DECORATED["partial"], body="ops.total(b)"), ops)
    whats = [u.what for u in result.unfollowed]
    assert len(whats) == 1 and "the collectives of `total` of" in whats[0] and "Mesh(" not in whats[0], whats
    drops = [fix for f in result.findings for fix in f.fixes if fix.title.startswith("Remove `spmd_axis_name`")]
    assert drops and all(fix.applicability is Applicability.UNSAFE for fix in drops)
