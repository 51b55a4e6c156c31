"""The reasons given for the fixes of an SPMD005 in the shardings of a `jax.jit` inside the vmapped function
(newuser15 m04): they say what blocks each fix, never "only a `with_sharding_constraint`" nor "no spec,
constraint or collective names the spmd axis" when it is the jit's shardings that name it. Only reasons are
concerned: no class changes (drop-spmd-axis stays unsafe without a reached shard_map: its safety is measured
on the mesh of a reached shard_map, and spmdfix does not read the mesh of a jit's shardings)."""

from __future__ import annotations

import textwrap

from spmdfix.api import check_source
from spmdfix.model import Applicability, Transform

# newuser15's m04: a pjit-era jit on a literal Auto mesh, no shard_map on the way
M04 = textwrap.dedent("""\
    import jax, jax.numpy as jnp, numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P, AxisType

    MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
    inner = jax.jit(lambda b: b * 2.0, in_shardings=NamedSharding(MESH, P('data')))


    def f(x):
        return inner(x)


    def main():
        xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
        return jax.vmap(f, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
""")

# the measured shape (safety/measurements/jit_shardings_spmd_axis.py): a shard_map whose specs name no spmd axis
WITH_SHARD_MAP = textwrap.dedent("""\
    import jax
    import numpy as np
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
    sh = NamedSharding(mesh, P('x'))


    def f(v):
        v = jax.jit(lambda u: u + 1.0, out_shardings=sh)(v)
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P())(v)


    g = jax.vmap(f, spmd_axis_name='x')
""")

CONSTRAINT = textwrap.dedent("""\
    import jax
    from jax.sharding import PartitionSpec as P


    def f(v):
        return jax.lax.with_sharding_constraint(v * 2.0, P('x'))


    g = jax.vmap(f, spmd_axis_name='x')
""")


def _only(text: str):
    found = check_source(text)
    assert [f.code for f in found] == ["SPMD005"], found
    return found[0]


def _refusal(finding, transform: Transform) -> str:
    return next(r.reason for r in finding.refusals if r.transform == transform)


def test_m04_without_a_shard_map_names_the_jit_and_what_blocks() -> None:
    finding = _only(M04)
    drop = finding.fix_for(Transform.DROP_SPMD_AXIS)
    assert drop is not None and drop.applicability == Applicability.UNSAFE
    for reason in (drop.reason, _refusal(finding, Transform.RENAME), _refusal(finding, Transform.ADD_AXIS)):
        assert "with_sharding_constraint" not in reason and "no spec, constraint or collective" not in reason
        assert "only the shardings of a `jax.jit` inside the vmapped function" in reason
        assert "`in_shardings=NamedSharding(MESH, P('data'))` of the jax.jit at line 5" in reason
        assert "spmdfix does not read the mesh of a jit's shardings" in reason
    assert "it is not known to be Auto" in drop.reason


def test_with_a_shard_map_rename_and_add_axis_say_the_jit_names_the_axis() -> None:
    finding = _only(WITH_SHARD_MAP)
    for transform in (Transform.RENAME, Transform.ADD_AXIS):
        reason = _refusal(finding, transform)
        assert reason.startswith("only the shardings of a `jax.jit` inside the vmapped function (`out_shardings=sh`")
        assert "cures nothing" not in reason
    drop = finding.fix_for(Transform.DROP_SPMD_AXIS)  # the measured drop on the shard_map's Auto mesh: kept
    assert drop is not None and drop.applicability == Applicability.SAFE


def test_a_constraint_alone_keeps_its_reason() -> None:
    finding = _only(CONSTRAINT)
    reason = _refusal(finding, Transform.ADD_AXIS)
    assert reason == "no shard_map is reached, only a `with_sharding_constraint`: the mesh it runs on is not known here"
