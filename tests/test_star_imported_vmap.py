"""`jax.vmap(f, spmd_axis_name=...)` whose `jax` comes from a star import of a module of the project.

`from common import *` with `import jax` in common.py: no statement of the module binds `jax`, so the call was
no vmap to the analysis and the module was silent ("All checks passed!") while JAX raises `vmap spmd_axis_name
cannot appear in shard_map in_specs` (safety/trials/newuser13, probes f1-f5). It is now an SPMD910 record at
the spmd_axis_name naming the star import, as a spec's `P` from such an import already was.
"""

from __future__ import annotations

from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

COMMON = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n"
)
SCRIPT = (
    "{head}\n\n\ndef f(x):\n"
    "    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('data'), out_specs=P('data'))(x)\n\n\n"
    "def run(xs):\n    return jax.vmap(f, spmd_axis_name='data')(xs)\n"
)


def _analyse(tmp_path: Path, head: str):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    (tmp_path / "common.py").write_text(COMMON)
    path = tmp_path.resolve() / "script.py"
    path.write_text(SCRIPT.format(head=head))
    project_graph.forget_graphs()
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(tmp_path.resolve()))


def test_a_star_imported_jax_gives_a_record_at_the_vmap(tmp_path: Path) -> None:
    result = _analyse(tmp_path, "from common import *")
    assert not result.findings
    whats = [u.what for u in result.unfollowed]
    assert len(whats) == 1 and "`jax` is bound by no statement of this module" in whats[0], whats
    assert "from common import *" in whats[0] and "`jax.vmap`" in whats[0], whats


def test_jax_imported_by_the_module_itself_is_read_as_before(tmp_path: Path) -> None:
    result = _analyse(tmp_path, "import jax\nfrom common import *")
    assert not any("`jax` is bound by no statement" in u.what for u in result.unfollowed)
