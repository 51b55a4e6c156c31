"""The batch's placement every fix's reason ends with (`spmdfix.fixes.placement`), and how `auto` takes a safe
drop-spmd-axis as a set (`choice.chosen_each`)."""

from __future__ import annotations

import textwrap

from spmdfix.api import Options, check_source, fix_source
from spmdfix.model import Applicability, Transform

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
"""


def _fixes(body: str) -> dict[Transform, str]:
    (finding, *_) = check_source(HEADER + textwrap.dedent(body))
    return {fix.transform: fix for fix in finding.fixes}


def test_every_fix_ends_with_its_placement_after_the_claim() -> None:
    fixes = _fixes(
        """
        def f(v):
            return jax.shard_map(lambda t: t * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        out = jax.vmap(f, spmd_axis_name='x')(jnp.ones((8, 4)))
        """
    )
    before = "before: split 2 ways over `'x'` (4 examples per device)"
    assert fixes[Transform.RENAME].placement == (
        f"batch placement after the fix: split 4 ways over `'y'` (2 examples per device); {before}"
    )
    assert fixes[Transform.ADD_AXIS].placement == (
        "batch placement after the fix: on the new size-1 axis `'batch'`, not split: every device holds the whole "
        f"batch (8 examples per device); {before}"
    )
    assert fixes[Transform.DROP_SPMD_AXIS].placement.startswith(
        "batch placement after the fix: no longer placed on any mesh axis, every device holds the whole batch"
    )
    assert fixes[Transform.STRIP].placement == "batch placement unchanged: split 2 ways over `'x'` (4 examples per device)"
    for fix in fixes.values():
        claim, _, placed = fix.reason.partition("; batch placement")
        assert claim and "batch placement" + placed == fix.placement, fix.reason


def test_two_batch_sizes_and_an_invisible_batch() -> None:
    two = _fixes(
        """
        def f(v):
            return jax.shard_map(lambda t: t * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        g = jax.vmap(f, spmd_axis_name='x')
        a = g(jnp.ones((8, 4)))
        b = g(jnp.ones((4, 4)))
        """
    )
    assert "split 2 ways over `'x'` (4 or 2 examples per device)" in two[Transform.STRIP].placement
    hidden = _fixes(
        """
        def f(v):
            return jax.shard_map(lambda t: t * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        def run(xs):
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """
    )
    assert hidden[Transform.STRIP].placement == (
        "batch placement unchanged: split 2 ways over `'x'` (1/2 of the batch per device; batch size not visible)"
    )


def test_a_safe_drop_waits_while_another_finding_of_its_site_takes_a_safe_fix() -> None:
    # SPMD005 (a constraint naming the spmd axis) and an SPMD003 capture: the rename is unsafe while the capture
    # is left, the drop safe; auto lifts the capture first (a safe fix of another finding), and renames in the
    # next pass instead of removing spmd_axis_name (golden/lift-captures/jit_above_vmap_constraint_auto_mesh).
    source = HEADER.replace(
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))",
        "mesh = Mesh(np.array(jax.devices()).reshape(1, 8), ('data', 'model'))",
    ) + textwrap.dedent(
        """
        from jax.sharding import NamedSharding

        def f(a):
            a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('data')))
            s = a.mean()
            return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P())(a)

        out = jax.jit(jax.vmap(f, spmd_axis_name='data'))(jnp.ones((8, 4)))
        """
    )
    findings = check_source(source)
    drops = [f.fix_for(Transform.DROP_SPMD_AXIS) for f in findings]
    assert drops and all(d is not None and d.applicability == Applicability.SAFE for d in drops)
    applied = fix_source(source, Options()).applied
    assert Transform.DROP_SPMD_AXIS not in {f.transform for f in applied}
    assert {f.transform for f in applied} == {Transform.LIFT_CAPTURES, Transform.RENAME}
