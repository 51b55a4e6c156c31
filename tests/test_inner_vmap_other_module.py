"""What another module's call batches, read through an inner `jax.vmap` on the way (`Analyzer._batched_parameters`).

train.py's spmd vmap maps `apply`, whose inner `jax.vmap(block, in_axes=...)(x, w)` maps model.py's `block`,
whose shard_map body closes over `s = w * 2.0` (fuzz/project.py seed 590048). The inner vmap is read as one
module reads it only when its `in_axes` is written as literals, it is applied at once to positional operands,
and it maps no operand the spmd vmap leaves unbatched; anything else keeps the SPMD910 record at the capture
(never a guess). The goldens `drop-spmd-axis/tree_capture_through_inner_vmap_other_module`,
`clean/tree_capture_unbatched_through_inner_vmap_other_module` and
`unfollowed/tree_capture_only_inner_vmap_batches_other_module` run the main forms under JAX.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

MODEL = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
    "def block(x, w):\n"
    "    s = w * 2.0\n"
    "    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)\n"
)


def _train(inner: str, outer: str = "(0, 0)", head: str = "") -> str:
    return (
        f"import jax\n\nfrom pkg.model import block\n{head}\n\n"
        f"def apply(x, w):\n    return {inner}\n\n\n"
        f"def forward(xs, ws):\n    return jax.vmap(apply, in_axes={outer}, spmd_axis_name='data')(xs, ws)\n"
    )


def _analyse(tmp_path: Path, train: str):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    (tmp_path / "pkg").mkdir()
    for name, text in {"__init__.py": "", "model.py": MODEL, "train.py": train}.items():
        (tmp_path / "pkg" / name).write_text(text)
    project_graph.forget_graphs()
    root = tmp_path.resolve()
    path = root / "pkg" / "train.py"
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(root))


def test_an_operand_the_spmd_vmap_batches_is_read_through_the_inner_vmap(tmp_path: Path) -> None:
    result = _analyse(tmp_path, _train("jax.vmap(block, in_axes=(0, None))(x, w)"))
    assert [f.code for f in result.findings] == ["SPMD003"]
    assert not result.unfollowed, [u.what for u in result.unfollowed]


def test_an_operand_neither_vmap_maps_is_unbatched(tmp_path: Path) -> None:
    result = _analyse(tmp_path, _train("jax.vmap(block, in_axes=(0, None))(x, w)", outer="(0, None)"))
    assert not result.findings, [f.message for f in result.findings]
    assert not result.unfollowed, [u.what for u in result.unfollowed]


def test_a_function_of_this_module_between_is_read_through_the_inner_vmap(tmp_path: Path) -> None:
    """`jax.vmap(helper, in_axes=(0, None))(x, w)` with `helper` calling `block`: the inner vmap is a step before
    the call into model.py, followed by the walk of batched values (`batched_by_function`)."""
    head = "\n\ndef helper(a, b):\n    return block(a, b)\n"
    batched = _analyse(tmp_path / "a", _train("jax.vmap(helper, in_axes=(0, None))(x, w)", head=head))
    assert [f.code for f in batched.findings] == ["SPMD003"]
    clean = _analyse(tmp_path / "b", _train("jax.vmap(helper, in_axes=(0, None))(x, w)", outer="(0, None)", head=head))
    assert not clean.findings and not clean.unfollowed


@pytest.mark.parametrize(
    "inner, head",
    [
        # `in_axes` not written as literals: one module counts every operand mapped; not read here
        ("jax.vmap(block, in_axes=AXES)(x, w)", "\nAXES = (0, None)"),
        ("jax.vmap(block, **KW)(x, w)", "\nKW = {'in_axes': (0, None)}"),
        # a pytree prefix entry
        ("jax.vmap(block, in_axes=(0, {'a': None}))(x, w)", ""),
        # not applied at once, or by keyword operands
        ("jax.vmap(block, in_axes=(0, None))(x, w=w)", ""),
        # the inner vmap maps `w`, which the spmd vmap does not batch (only the inner vmap does)
        ("jax.vmap(block, in_axes=(0, 0))(x, w)", ""),
    ],
)
def test_an_inner_vmap_not_read_keeps_the_record(tmp_path: Path, inner: str, head: str) -> None:
    outer = "(0, None)" if "(0, 0))" in inner else "(0, 0)"
    result = _analyse(tmp_path, _train(inner, outer=outer, head=head))
    assert not result.findings, [f.message for f in result.findings]
    assert result.unfollowed, "an inner vmap not read must leave the SPMD910 record at the capture"
