"""`self.NAME` read in a method of a class of a module the analysis follows a name into is not the class's own
value when another module of the project subclasses the class and gives NAME another value, or sets `.NAME` on
some object (`importers.redefined_elsewhere`, asked by `members.ClassMembers.overridden`).

`layers.Block.apply` reads `self.axis` (`axis = 'data'` in its body); train.py's `class ModelBlock(Block): axis =
'model'` vmaps `ModelBlock().apply` on 'data', which JAX runs (golden/clean/tree_class_attribute_redefined_by_
subclass_elsewhere). `Block`'s own 'data' was read and SPMD001/SPMD002 reported with a safe drop-spmd-axis.
"""

from __future__ import annotations

from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

LAYERS = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "MESH = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ('data', 'model'))\n\n\n"
    "class Block:\n    axis = 'data'\n\n"
    "    def apply(self, x):\n"
    "        return jax.shard_map(lambda a: a * 2.0, mesh=MESH, in_specs=P(self.axis), out_specs=P(self.axis))(x)\n"
)


def _train(body: str, classes: str = "") -> str:
    return f"import jax\n\nfrom .layers import Block\n\n{classes}\n\ndef step(xs):\n{body}"


SUBCLASS = "class ModelBlock(Block):\n    axis = 'model'\n"


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


def test_a_subclass_elsewhere_giving_the_attribute_another_value_makes_it_unknown(tmp_path: Path) -> None:
    train = _train("    return jax.vmap(ModelBlock().apply, spmd_axis_name='data')(xs)\n", SUBCLASS)
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/train.py": train})
    result = _analyse(root, "pkg/train.py")
    assert not result.findings, [f.message for f in result.findings]
    what = " ".join(u.what for u in result.unfollowed)
    assert "another module of the project subclasses `Block` and gives `axis` another value" in what, what


def test_an_attribute_set_in_another_module_makes_it_unknown(tmp_path: Path) -> None:
    train = _train("    blk = Block()\n    blk.axis = 'model'\n    return jax.vmap(blk.apply, spmd_axis_name='data')(xs)\n")
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/train.py": train})
    result = _analyse(root, "pkg/train.py")
    assert not result.findings and result.unfollowed, [f.message for f in result.findings]


def test_a_subclass_of_a_subclass_in_a_third_module_counts_too(tmp_path: Path) -> None:
    mid = "from .layers import Block\n\n\nclass Mid(Block):\n    pass\n"
    train = (
        "import jax\n\nfrom .mid import Mid\n\n\nclass ModelBlock(Mid):\n    axis = 'model'\n\n\n"
        "def step(xs):\n    return jax.vmap(ModelBlock().apply, spmd_axis_name='data')(xs)\n"
    )
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/mid.py": mid, "pkg/train.py": train})
    assert not _analyse(root, "pkg/train.py").findings


def test_the_class_itself_built_in_another_module_is_read(tmp_path: Path) -> None:
    """No subclass, no write: `Block().apply` reads Block's 'data' (JAX raises: a finding)."""
    train = _train("    return jax.vmap(Block().apply, spmd_axis_name='data')(xs)\n")
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/train.py": train})
    assert {f.code for f in _analyse(root, "pkg/train.py").findings} == {"SPMD001", "SPMD002"}


def test_a_subclass_elsewhere_keeping_the_attribute_is_read(tmp_path: Path) -> None:
    """`class Wide(Block): pass` elsewhere gives `axis` no other value: Block's 'data' is read (a finding)."""
    train = _train("    return jax.vmap(Wide().apply, spmd_axis_name='data')(xs)\n", "class Wide(Block):\n    pass\n")
    root = _project(tmp_path, {"pkg/layers.py": LAYERS, "pkg/train.py": train})
    assert {f.code for f in _analyse(root, "pkg/train.py").findings} == {"SPMD001", "SPMD002"}
