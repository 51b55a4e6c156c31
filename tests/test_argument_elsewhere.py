"""A parameter read from the calls of its own module (`ModuleIndex.argument_for`) only when no other module of the
project may call its function or class by name (`importers.named_elsewhere`).

A layer `def block(x, axis)` called in its module as `block(x, 'model')` and from another module's spmd vmap on
`'model'` as `block(x, 'data')` runs under JAX (golden/clean/tree_layer_parameter_called_from_two_modules); the
parameter was read as `'model'` from the one call of its module, and SPMD001/SPMD002 reported with a safe
add-axis. Now the other module's paths read the parameter from their own call of `block` (`reach.External.bound`,
the call's arguments and the defaults), and where a call cannot be bound (`*args`, a decorator that may change the
arguments), the module's calls are not read either: an SPMD910 record naming why, no finding.
"""

from __future__ import annotations

from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

LAYERS = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
    "def block(x, axis):\n"
    "    return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(x)\n\n\n"
    "def forward(xs):\n    return jax.vmap(lambda x: block(x, 'model'), spmd_axis_name='model')(xs)\n"
)
OTHER = "import jax\n\nfrom .layers import block\n\n\ndef forward(xs):\n    return jax.vmap(lambda x: block(x, 'data'), spmd_axis_name='model')(xs)\n"

DATACLASS_LAYERS = (
    "import dataclasses\n\nimport jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
    "@dataclasses.dataclass\nclass Block:\n    axis: str = 'model'\n\n"
    "    def __call__(self, x):\n"
    "        return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(x)\n\n\n"
    "LAYER = Block()\n\n\ndef forward(xs):\n    return jax.vmap(LAYER, spmd_axis_name='model')(xs)\n"
)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    for name, text in {"pkg/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    project_graph.forget_graphs()
    return tmp_path.resolve()


def _analyse(root: Path, module: str):
    path = root / module
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(root))


def test_a_module_alone_reads_the_parameter_from_its_one_call(tmp_path: Path) -> None:
    root = _project(tmp_path, {"pkg/layers.py": LAYERS})
    result = _analyse(root, "pkg/layers.py")
    assert {f.code for f in result.findings} == {"SPMD001", "SPMD002"}


def test_another_module_calling_the_function_is_read_from_its_own_call(tmp_path: Path) -> None:
    """other.py's vmap reaches `block` through its own call `block(x, 'data')`: layers.py's one call does not
    say what `axis` is there, the call on the path does (`reach.External.bound`): 'data', not the spmd axis
    'model', so no finding and nothing left unread. layers.py's own vmap enters `block` through its own call."""
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/other.py": OTHER})
    result = _analyse(root, "pkg/other.py")
    assert not result.findings, [f.message for f in result.findings]
    assert not result.unfollowed, [u.what for u in result.unfollowed]
    assert {f.code for f in _analyse(root, "pkg/layers.py").findings} == {"SPMD001", "SPMD002"}


def test_the_call_on_the_path_gives_the_collision(tmp_path: Path) -> None:
    """The same layer called from other.py with the spmd axis: the finding, located at the spec in layers.py,
    with the chain through other.py's call."""
    other = OTHER.replace("block(x, 'data')", "block(x, 'model')")
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/other.py": other})
    result = _analyse(root, "pkg/other.py")
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"]
    assert all(f.span.path.endswith("layers.py") for f in result.findings)


def test_a_default_no_call_passes_is_read(tmp_path: Path) -> None:
    """`def block(x, axis='model')` called as `block(x)` by other.py: the default, read where `block` is defined."""
    layers = LAYERS.replace("def block(x, axis):", "def block(x, axis='model'):").replace(
        "block(x, 'model')", "block(x, 'data')"
    )
    other = OTHER.replace("block(x, 'data')", "block(x)")
    root = _project(tmp_path, {"pkg/layers.py": layers, "pkg/other.py": other})
    assert sorted(f.code for f in _analyse(root, "pkg/other.py").findings) == ["SPMD001", "SPMD002"]


def test_an_importer_of_the_module_object_is_read_from_its_call_too(tmp_path: Path) -> None:
    other = OTHER.replace("from .layers import block", "from . import layers").replace("block(x, 'data')", "layers.block(x, 'model')")
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/other.py": other})
    result = _analyse(root, "pkg/other.py")
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"]


def test_a_call_it_cannot_bind_stays_a_record(tmp_path: Path) -> None:
    """`block(*args)`: which parameter gets which value is not read; the record says why, no finding."""
    other = OTHER.replace("lambda x: block(x, 'data')", "lambda x: block(*(x, 'model'))")
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/other.py": other})
    result = _analyse(root, "pkg/other.py")
    assert not result.findings
    what = " ".join(u.what for u in result.unfollowed)
    assert "called in its module and by other modules of the project, and the call at line 7 of" in what, what
    assert "pkg/other.py passes no value spmdfix reads for it" in what, what


def test_a_decorator_that_may_change_the_arguments_stays_a_record(tmp_path: Path) -> None:
    """A project decorator between the call and the function may pass other arguments: not bound."""
    layers = LAYERS.replace("def block(x, axis):", "def twice(f):\n    return lambda x, axis: f(x, 'data')\n\n\n@twice\ndef block(x, axis):")
    other = OTHER.replace("block(x, 'data')", "block(x, 'model')")
    root = _project(tmp_path, {"pkg/layers.py": layers, "pkg/other.py": other})
    result = _analyse(root, "pkg/other.py")
    assert not result.findings, [f.message for f in result.findings]
    assert result.unfollowed


def test_a_function_no_other_module_reaches_is_read_from_its_calls(tmp_path: Path) -> None:
    """other.py's vmap calls `apply` of layers.py, which calls `block(x, 'model')`: `block` is named by no other
    module, so its module's one call is the one on the path (a finding: JAX fails, 'model' is in both)."""
    layers = LAYERS + "\n\ndef apply(x):\n    return block(x, 'model')\n"
    other = "import jax\n\nfrom .layers import apply\n\n\ndef run(xs):\n    return jax.vmap(apply, spmd_axis_name='model')(xs)\n"
    root = _project(tmp_path, {"pkg/layers.py": layers, "pkg/other.py": other})
    assert {f.code for f in _analyse(root, "pkg/other.py").findings} == {"SPMD001", "SPMD002"}


def test_a_class_field_default_is_not_read_for_another_modules_construction(tmp_path: Path) -> None:
    """build.py vmaps `Block(axis='data')` on 'model' (JAX runs it); layers.py builds `Block()` and reads the
    default 'model'. The field read in `__call__` for build.py's instance is not the default: no finding."""
    builder = (
        "import jax\n\nfrom .layers import Block\n\n\n"
        "def forward(xs):\n    return jax.vmap(Block(axis='data'), spmd_axis_name='model')(xs)\n"
    )
    root = _project(tmp_path, {"pkg/layers.py": DATACLASS_LAYERS, "pkg/build.py": builder})
    result = _analyse(root, "pkg/build.py")
    assert not result.findings, [f.message for f in result.findings]
    assert {f.code for f in _analyse(root, "pkg/layers.py").findings} == {"SPMD001", "SPMD002"}
