"""A mesh's own `axis_names` read as the axes it names: `spmd_axis_name=mesh.axis_names[0]`, `mesh.axis_names`,
`P(mesh.axis_names[-1])` (`analysis.meshes.mesh_axis_names`). Each gave an SPMD910 record ("a subscript spmdfix
cannot read") where JAX raised; the mesh's construction is now read. What is not a construction in the source
stays a record, never a guess: an index that is not an integer literal or out of range, a mesh the analysis
does not resolve, the mesh in force where the code runs (`get_abstract_mesh()`)."""

from __future__ import annotations

import pytest

from spmdfix.api import analyse_source
from spmdfix.model import Options

HEAD = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
    "layer = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P({spec}), out_specs=P({spec}))\n\n\n"
    "def run(xs, i, other):\n    return jax.vmap(layer, spmd_axis_name={spmd})(xs)\n"
)


def _analyse(spmd: str, spec: str = "'x'"):
    return analyse_source(HEAD.format(spmd=spmd, spec=spec), Options())


@pytest.mark.parametrize(
    ("spmd", "spec", "axis"),
    [
        ("mesh.axis_names[0]", "'x'", "'x'"),
        ("mesh.axis_names[-1]", "'y'", "'y'"),
        ("mesh.axis_names", "'y'", "'y'"),  # every axis, ('x', 'y')
        ("'x'", "mesh.axis_names[0]", "'x'"),
        ("mesh.axis_names[1]", "mesh.axis_names[-1]", "'y'"),
    ],
)
def test_the_mesh_s_axis_names_are_read_as_the_axes_they_name(spmd: str, spec: str, axis: str) -> None:
    result = _analyse(spmd, spec)
    assert [f.code for f in result.findings] == ["SPMD001", "SPMD002"]
    assert all(f"axis `{axis}`" in f.message for f in result.findings)
    assert not result.unfollowed


def test_another_axis_of_the_mesh_collides_with_nothing() -> None:
    result = _analyse("mesh.axis_names[1]")
    assert not result.findings and not result.unfollowed


@pytest.mark.parametrize(
    "spmd",
    [
        "mesh.axis_names[2]",  # out of range: JAX raises IndexError, not a collision
        "mesh.axis_names[i]",
        "mesh.axis_names[True]",
        "other.axis_names[0]",  # a parameter no call binds
        "jax.sharding.get_abstract_mesh().axis_names[0]",
        "mesh.shape[0]",
    ],
)
def test_what_is_not_read_from_a_mesh_construction_stays_a_record(spmd: str) -> None:
    result = _analyse(spmd)
    assert not result.findings
    assert [u.what for u in result.unfollowed] and "spmd_axis_name" in result.unfollowed[0].what


def test_the_fix_replaces_the_expression_and_leaves_the_mesh_alone() -> None:
    """rename writes the new axis where `mesh.axis_names[0]` is written; the mesh's construction is not edited
    (its axis literals are not the expression's: `mesh_axis_names` gives the expression's span)."""
    from spmdfix.api import fix_source

    source = (
        "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
        "layer = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))\n"
        "out = jax.vmap(layer, spmd_axis_name=mesh.axis_names[0])(np.ones((8, 8)))\n"
    )
    done = fix_source(source, Options(strategy="rename"))
    assert [f.id.transform.value for f in done.applied] == ["rename"]
    assert done.source == source.replace("mesh.axis_names[0]", "'y'")
