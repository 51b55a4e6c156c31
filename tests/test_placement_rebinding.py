"""The batch placement of a name a statement may rebind: an assignment in a branch, a loop or a `try` that does
not also hold the call, or a `nonlocal`/`global` statement naming it; or a binding form the straight-line reading
does not read (a loop holding the call, a `:=`) (`shapes.StaticShapes.rebinding`).

breaker10 t42/t46: `if flip: xs = jax.sharding.reshard(xs, P('x', None))` before an spmd vmap reaching a
shard_map whose `axis_names` names the spmd axis raised SPMD008's `axis_names` error with no finding and no
SPMD910 record. Which branch runs decides what JAX does (safety/measurements/spmd008_axis_names_unknown_placement.py:
on `'x'` the `axis_names` error; unplaced, an in_specs mismatch eagerly, a run under jit), so the placement is
unknown: an SPMD910 record naming the statement, no SPMD008 finding. Goldens: unfollowed/batch_placement_assigned_in_if,
tree_batch_placement_assigned_in_if_other_module, tree_batch_placement_rebound_by_nonlocal.
"""

from __future__ import annotations

import textwrap

import pytest

from spmdfix.api import analyse_source, check_source

HEADER = """
import jax
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), axis_names=NAMES)(x)
"""

# (the body of `step(xs, flip)`, words of the record, the line it names counted from the line before `def step`)
REBOUND = {
    "if": ("""
        with jax.set_mesh(mesh):
            if flip:
                xs = jax.sharding.reshard(xs, P('x', None))
            return jax.vmap(block, spmd_axis_name='x')(xs)
        """, "`if` statement", 3),
    "for": ("""
        with jax.set_mesh(mesh):
            for _ in range(flip):
                xs = jax.sharding.reshard(xs, P('x', None))
            return jax.vmap(block, spmd_axis_name='x')(xs)
        """, "`for` statement", 3),
    "try": ("""
        with jax.set_mesh(mesh):
            try:
                xs = jax.sharding.reshard(xs, P('x', None))
            except ValueError:
                pass
            return jax.vmap(block, spmd_axis_name='x')(xs)
        """, "`try` statement", 3),
    "nonlocal": ("""
        with jax.set_mesh(mesh):
            xs = jax.sharding.reshard(xs, P('x', None))

            def replace():
                nonlocal xs
                xs = jax.sharding.reshard(xs, P(None, 'y'))

            replace()
            return jax.vmap(block, spmd_axis_name='x')(xs)
        """, "`nonlocal xs` in `replace`", 6),
    "loop_carried": ("""
        with jax.set_mesh(mesh):
            for _ in range(2):
                out = jax.vmap(block, spmd_axis_name='x')(xs)
                xs = jax.sharding.reshard(out, P('x', None))
        """, "`for` loop at line", 3),
    "for_target": ("""
        with jax.set_mesh(mesh):
            for xs in [jax.sharding.reshard(xs, P('x', None))]:
                return jax.vmap(block, spmd_axis_name='x')(xs)
        """, "bound by the `for` statement", 3),
    "walrus": ("""
        with jax.set_mesh(mesh):
            (xs := jax.sharding.reshard(xs, P('x', None)))
            return jax.vmap(block, spmd_axis_name='x')(xs)
        """, "a `:=` expression", 3),
}


def _source(body: str, names: str) -> tuple[str, int]:
    head = HEADER.replace("NAMES", names)
    step = "\n\ndef step(xs, flip=True):\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"
    return head + step, head.count("\n") + 2  # the line of `def step`


@pytest.mark.parametrize("form", sorted(REBOUND))
def test_a_rebound_placement_is_an_spmd910_record_naming_the_statement(form):
    body, words, offset = REBOUND[form]
    text, def_line = _source(body, "{'x', 'y'}")
    records = [u.what for u in analyse_source(text).unfollowed]
    assert len(records) == 1, records
    assert "the placement of the vmapped input (`xs`) is not known" in records[0]
    assert words in records[0] and f"line {def_line + offset}" in records[0], records[0]
    assert not [f for f in check_source(text) if f.code == "SPMD008"]


def test_no_record_where_the_placement_decides_nothing():
    # `axis_names={'y'}`, check_vma on: SPMD008 reads no placement (`unread_matters.placement_matters`)
    text, _ = _source(REBOUND["if"][0], "{'y'}")
    assert not analyse_source(text).unfollowed


def test_the_finding_stays_where_the_assignment_and_the_call_share_a_block():
    # the straight-line reading reads it (`_inner_block_value`): SPMD008, no record
    body = """
        with jax.set_mesh(mesh):
            if flip:
                xs = jax.sharding.reshard(xs, P('x', None))
                return jax.vmap(block, spmd_axis_name='x')(xs)
            return xs
        """
    text, _ = _source(body, "{'x', 'y'}")
    assert [f.code for f in check_source(text)] == ["SPMD008"]
    assert not analyse_source(text).unfollowed
