"""What the SPMD910 reason of a shard_map without `mesh=` says about the context mesh.

`_mesh_expr` reads a `with jax.set_mesh(MESH):` of the shard_map's own module only. When the vmap is in
another module (train.py's `with jax.set_mesh(MESH): jax.vmap(step, spmd_axis_name='dp')(xs)` reaching
layers.py's `jax.shard_map(body, in_specs=P('dp'), out_specs=P('dp'))`), the reason said "no `with
jax.set_mesh(...)` is around it or its way from the vmap", which is untrue: JAX uses that mesh
(safety/trials/newuser13 p4; breaker8 t12). It now says that one of another module is not read. In one module
with no `with` at all, the reason is as before.
"""

from __future__ import annotations

from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

LAYERS = (
    "import jax\nfrom jax.sharding import PartitionSpec as P\n\n\n"
    "def step(x):\n    return jax.shard_map(lambda b: b * 3.0, in_specs=P('dp'), out_specs=P('dp'))(x)\n"
)
TRAIN = (
    "import jax\n\nfrom pkg.layers import step\n\n"
    "MESH = jax.make_mesh((4, 2), ('dp', 'tp'), axis_types=(jax.sharding.AxisType.Auto,) * 2)\n\n\n"
    "def forward(xs):\n    with jax.set_mesh(MESH):\n        return jax.vmap(step, spmd_axis_name='dp')(xs)\n"
)
UNTRUE = "no `mesh=` is passed and no `with jax.set_mesh(...)` is around it"


def _analyse(root: Path, files: dict[str, str], checked: str):
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    (root / "pkg").mkdir()
    for name, text in {"__init__.py": "", **files}.items():
        (root / "pkg" / name).write_text(text)
    project_graph.forget_graphs()
    path = root.resolve() / "pkg" / checked
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(root.resolve()))


def _reasons(result) -> list[str]:
    return [fix.reason for f in result.findings for fix in f.fixes] + [
        refusal.reason for f in result.findings for refusal in f.refusals
    ]


def test_a_set_mesh_of_the_vmaps_module_is_not_said_to_be_absent(tmp_path: Path) -> None:
    result = _analyse(tmp_path, {"layers.py": LAYERS, "train.py": TRAIN}, "train.py")
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"]
    reasons = _reasons(result)
    assert not any(UNTRUE in r for r in reasons), reasons
    assert any("of this module is around it" in r and "in another module is not read yet" in r for r in reasons)


def test_one_module_without_any_set_mesh_keeps_its_reason(tmp_path: Path) -> None:
    one = LAYERS + "\n\ndef forward(xs):\n    return jax.vmap(step, spmd_axis_name='dp')(xs)\n"
    reasons = _reasons(_analyse(tmp_path, {"layers.py": one}, "layers.py"))
    assert any(UNTRUE in r for r in reasons), reasons
