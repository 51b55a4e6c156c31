"""The strip allowlist (spmdfix.analysis.stripbody): which shard_map bodies keep their values once stripped."""

from __future__ import annotations

import textwrap

import pytest

from golden import GOLDEN
from spmdfix.api import check_source
from spmdfix.model import Applicability, Transform

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.array([1., 2.])
K = 3
"""


def _strip(body: str, in_specs: str = "P('x')", out_specs: str = "P('x')", args: str = "x", operands: str = ""):
    source = HEADER + body + textwrap.dedent(
        f"""
        def layer(x, w):
            return jax.shard_map(body, mesh=mesh, in_specs={in_specs}, out_specs={out_specs})({args})
        jax.vmap(layer, in_axes=(0, None), spmd_axis_name='x'){f"({operands})" if operands else ""}
        """
    )
    fixes = [f.fix_for(Transform.STRIP) for f in check_source(source) if f.code == "SPMD001"]
    assert fixes and fixes[0] is not None
    return fixes[0]


SAFE = {
    "scalar_literals": "def body(b):\n    return b * 2.0 + 1",
    "module_number": "def body(b):\n    return b * K - K ** 2",
    "locals_and_elementwise_calls": "def body(b):\n    y = jnp.sin(b) * 0.5\n    return jnp.where(y > 0, y, 0.0).astype(jnp.float32)",
    "module_constant_attribute": "def body(b):\n    return b * jnp.pi",
}

UNSAFE = {
    "closure_array": ("def body(b):\n    return b * W", "`W` (line 9)"),
    "array_literal": ("def body(b):\n    return b * jnp.array([1., 2.])", "builds an array from `[1.0, 2.0]`"),
    "reduction": ("def body(b):\n    return b - b.mean()", "`b.mean`"),
    "shape_read": ("def body(b):\n    return b * b.shape[0]", "indexes `b.shape[0]` (line 9)"),
    "indexing": ("def body(b):\n    return b[0] * b", "indexes `b[0]` (line 9)"),
    # a lookup in a value from outside the body is said as one (newuser11's trial: "the body indexes an array at
    # `SIZES[DATA]`", a dict lookup of a constant)
    "table_lookup": (
        "SIZES = dict(x=2, y=4)\ndef body(b):\n    return b / SIZES['x']",
        "reads `SIZES['x']` (line 10), an item of `SIZES`, bound at line 8: a lookup in a value from outside the body",
    ),
    "matmul": ("def body(b):\n    return b @ b", "not elementwise"),
    "control_flow": ("def body(b):\n    for i in range(2):\n        b = b * 2\n    return b", "`For` statement"),
    "imported_table_lookup": (
        "from jax.numpy import _table\ndef body(b):\n    return b / _table['x']",
        "an item of `_table`, imported as `jax.numpy._table`: a lookup in a value from outside the body",
    ),
    "unlisted_call": ("def body(b):\n    return jnp.cumsum(b)", "`jax.numpy.cumsum`"),
    "gather": ("def body(b):\n    return jax.lax.all_gather(b, 'y')", "`jax.lax.all_gather`"),
}


@pytest.mark.parametrize("name", sorted(SAFE))
def test_safe_bodies(name: str) -> None:
    fix = _strip(SAFE[name])
    assert fix.applicability == Applicability.SAFE, fix.reason


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_unsafe_bodies_name_the_use(name: str) -> None:
    body, why = UNSAFE[name]
    fix = _strip(body)
    assert fix.applicability == Applicability.UNSAFE
    assert why in fix.reason, fix.reason


def test_operand_whose_spec_is_not_stripped_is_a_different_layout() -> None:
    fix = _strip("def body(b, v):\n    return b * v", in_specs="(P('x'), P())", args="x, w")
    assert fix.applicability == Applicability.UNSAFE
    assert "different layouts at `b * v`" in fix.reason


def test_operands_stripped_alike_are_fine() -> None:
    # (the call shows both operands' ranks: 1 for x's examples, 1 for the unmapped w)
    fix = _strip(
        "def body(b, v):\n    return b * v", in_specs="(P('x'), P('x'))", args="x, w",
        operands="jnp.ones((4, 8)), jnp.ones(8)",
    )
    assert fix.applicability == Applicability.SAFE, fix.reason


def test_operands_of_different_ranks_stripped_alike_change_values() -> None:
    # broadcasting lines w's (2, 8) up with x's (8,) from the right: row k of w meets x[k] per block, column j
    # meets x[j] once stripped (safety/trials/breaker14 s01, s02)
    fix = _strip(
        "def body(b, v):\n    return b * v", in_specs="(P('x'), P('x'))", args="x, w",
        operands="jnp.ones((4, 8)), jnp.ones((8, 8))",
    )
    assert fix.applicability == Applicability.UNSAFE
    assert "of ranks 1 and 2 at `b * v` (line 9)" in fix.reason


def test_operands_of_ranks_not_seen_stripped_alike_are_not_proven() -> None:
    fix = _strip("def body(b, v):\n    return b * v", in_specs="(P('x'), P('x'))", args="x, w")
    assert fix.applicability == Applicability.UNSAFE
    assert "whose ranks are not known to be equal" in fix.reason


def test_unstripped_operand_returned_alone_is_fine() -> None:
    fix = _strip(
        "def body(b, v):\n    return b * 2, v + 1", in_specs="(P('x'), P())", out_specs="(P('x'), P())", args="x, w"
    )
    assert fix.applicability == Applicability.SAFE, fix.reason


def test_block_leaving_through_an_unstripped_out_spec_changes_values() -> None:
    fix = _strip("def body(b):\n    return b * 2", in_specs="P('x', 'y')", out_specs="P(None, 'y')")
    assert fix.applicability == Applicability.UNSAFE
    assert "output 0" in fix.reason


def _spec_strip(prelude: str, in_specs: str, out_specs: str, extra: str = ""):
    source = HEADER + textwrap.dedent(prelude) + textwrap.dedent(
        f"""
        def layer(x, w):
            return jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs={in_specs}, out_specs={out_specs})(x)
        jax.vmap(layer, in_axes=(0, None), spmd_axis_name='x')
        """
    ) + textwrap.dedent(extra)
    fixes = [f.fix_for(Transform.STRIP) for f in check_source(source) if f.code == "SPMD001"]
    assert fixes and fixes[0] is not None
    return fixes[0]


def test_spec_name_used_only_by_this_shard_map_is_fine() -> None:
    fix = _spec_strip("ACT = P('x')\nSPECS = (ACT,)\n", "SPECS", "ACT")
    assert fix.applicability == Applicability.SAFE, fix.reason


def test_spec_name_also_placing_an_input_makes_strip_unsafe() -> None:
    fix = _spec_strip(
        "ACT = P('x')\n",
        "ACT",
        "ACT",
        "def place(v):\n    return jax.device_put(v, jax.sharding.NamedSharding(mesh, ACT))\n",
    )
    assert fix.applicability == Applicability.UNSAFE
    assert "NamedSharding(mesh, ACT)" in fix.reason and "line" in fix.reason, fix.reason


def test_spec_container_used_elsewhere_makes_strip_unsafe() -> None:
    fix = _spec_strip(
        "ACT = P('x')\nSPECS = (ACT,)\n",
        "SPECS",
        "ACT",
        "other = jax.shard_map(lambda b: b, mesh=mesh, in_specs=SPECS, out_specs=P())\n",
    )
    assert fix.applicability == Applicability.UNSAFE
    assert "in_specs=SPECS" in fix.reason, fix.reason


def test_constraint_spec_used_elsewhere_makes_its_strip_unsafe() -> None:
    source = HEADER + textwrap.dedent(
        """
        ROW = P('x')
        def f(v):
            return jax.lax.with_sharding_constraint(v, jax.sharding.NamedSharding(mesh, ROW)) * 2
        jax.vmap(f, spmd_axis_name='x')
        placed = jax.device_put(np.zeros(8), jax.sharding.NamedSharding(mesh, ROW))
        """
    )
    fixes = [f.fix_for(Transform.STRIP) for f in check_source(source) if f.code == "SPMD005"]
    assert fixes and fixes[0].applicability == Applicability.UNSAFE
    assert "(line 13)" in fixes[0].reason, fixes[0].reason


# Issue 23 kind 3 (safety/measurements/strip_collective_shared_dimension.py): a body collective over an axis
# that shares a tuple spec entry with the stripped axis, the stripped axis before it.
SHARED_DIMENSION_UNSAFE = {
    "pmean_x_major": ("P(('x', 'y'))", "b - jax.lax.pmean(b, 'y')", "`pmean` over `'y'` (line 9)"),
    "psum_x_major": ("P(('x', 'y'))", "b + jax.lax.psum(b, 'y')", "`psum` over `'y'` (line 9)"),
    "pmax_keyword_axis": ("P(('x', 'y'))", "b + jax.lax.pmax(b, axis_name='y')", "`pmax` over `'y'` (line 9)"),
    "axis_index": ("P(('x', 'y'))", "b + jax.lax.axis_index('y')", "`axis_index` over `'y'` (line 9)"),
    "three_members": ("P(('x', 'y', 'z'))", "b + jax.lax.psum(b, 'z')", "`psum` over `'z'` (line 9)"),
    "second_dimension": ("P(None, ('x', 'y'))", "b - jax.lax.pmean(b, 'y')", "`pmean` over `'y'` (line 9)"),
}


@pytest.mark.parametrize("name", sorted(SHARED_DIMENSION_UNSAFE))
def test_collective_over_an_axis_sharing_the_stripped_dimension_makes_strip_unsafe(name: str) -> None:
    spec, expr, why = SHARED_DIMENSION_UNSAFE[name]
    fix = _strip(f"def body(b):\n    return {expr}", in_specs=spec, out_specs=spec)
    assert fix.applicability == Applicability.UNSAFE
    assert why in fix.reason and "shares with it in the spec entry" in fix.reason, fix.reason


SHARED_DIMENSION_SAFE = {
    "separate_entries": "P('x', 'y')",
    "stripped_axis_minor": "P(('y', 'x'))",
    "other_dimension": "P(('x', 'z'), 'y')",
}


@pytest.mark.parametrize("name", sorted(SHARED_DIMENSION_SAFE))
def test_collective_over_an_axis_not_sharing_the_dimension_or_major_keeps_strip_safe(name: str) -> None:
    spec = SHARED_DIMENSION_SAFE[name]
    fix = _strip("def body(b):\n    return b - jax.lax.pmean(b, 'y')", in_specs=spec, out_specs=spec)
    assert fix.applicability == Applicability.SAFE, fix.reason


def test_golden_refusal_names_the_collective_and_the_shared_entry() -> None:
    source = (GOLDEN / "refuse" / "strip_collective_shared_dimension" / "input.py").read_text(encoding="utf-8")
    fixes = [f.fix_for(Transform.STRIP) for f in check_source(source) if f.code == "SPMD001"]
    assert fixes and fixes[0] is not None
    assert fixes[0].applicability == Applicability.UNSAFE
    assert "`pmean` over `'y'` (line 15)" in fixes[0].reason, fixes[0].reason
    assert "spec entry `('x', 'y')`" in fixes[0].reason, fixes[0].reason


def test_spmd006_strip_of_a_decorator_vmap_called_twice_is_unsafe() -> None:
    # golden strip/plain_vmap_decorator_jit_placed_batch with a second call: the placement was read at the
    # first call only, so the strip (measured for that call) is unsafe and says why.
    source = (GOLDEN / "strip" / "plain_vmap_decorator_jit_placed_batch" / "input.py").read_text(encoding="utf-8")
    once = [f.fix_for(Transform.STRIP) for f in check_source(source) if f.code == "SPMD006"]
    assert once and all(f is not None and f.applicability == Applicability.SAFE for f in once)
    twice = source.replace("return apply(xs), ", "return apply(xs) + apply(jnp.asarray(xs0)) * 0.0, ")
    assert twice != source
    fixes = [f.fix_for(Transform.STRIP) for f in check_source(twice) if f.code == "SPMD006"]
    assert fixes and all(f is not None and f.applicability == Applicability.UNSAFE for f in fixes)
    assert "the vmap has other calls (or uses) than the one whose placement was read" in fixes[0].reason


def test_callers_past_the_walks_limit_make_strip_unsafe_and_are_named() -> None:
    """`analysis.callers` follows at most `follow.CALLERS.limit` bindings holding the shard_map'd function; the
    aliases left when it stops are not searched, so strip is unsafe and names the first of them, at its line."""
    from spmdfix.analysis.follow import CALLERS

    source = textwrap.dedent(
        """\
        import jax
        import numpy as np
        from jax.sharding import Mesh, PartitionSpec as P
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        def layer(x):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        step = jax.vmap(layer, spmd_axis_name='x')
        """
    )

    def strip(aliases: int):
        text = source + "".join(f"alias{i} = layer\n" for i in range(aliases))
        fixes = [f.fix_for(Transform.STRIP) for f in check_source(text) if f.code == "SPMD001"]
        assert fixes and fixes[0] is not None
        return fixes[0]

    within = strip(CALLERS.limit - 10)  # every alias taken: none is read, so none is another caller
    assert within.applicability == Applicability.SAFE, within.reason
    past = strip(CALLERS.limit + 20)
    assert past.applicability == Applicability.UNSAFE
    assert f"`callers of `alias0` (past {CALLERS.limit} steps)` (line 8)" in past.reason, past.reason
