"""A shard_map whose body is a parameter of the function applying it (a project decorator) is read for hazard H2
in the functions given for it: a decorated def applying `lax.cond` or an inner `jax.vmap` makes add-axis and
rename, which keep the spmd vmap, unsafe (stop 41: a SAFE add-axis over `@sharded def block(b): return
lax.cond(...)` raised `pvary is a invariant->variant collective`; goldens refuse/add_axis_project_decorator_body_
applies_cond and refuse/tree_project_decorator_other_module_body_applies_vmap). The same decorators over a def
without such a call keep their safe add-axis."""

from __future__ import annotations

import pytest

from spmdfix.api import check_source
from spmdfix.model import Applicability, Transform

HEAD = (
    "import functools\n\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
    "from jax.sharding import AxisType, PartitionSpec as P\n\n"
    "MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
)
COND = "lax.cond(b.sum() > 0, lambda u, v: u * 2.0 + v, lambda u, v: u - v, b, jnp.ones_like(b))"
INNER_VMAP = "jax.vmap(lambda u, v: u + v)(b, jnp.ones_like(b))"
PLAIN = "jnp.tanh(b) * 2.0"
SHAPES = {
    "decorator": (
        "def sharded(fn):\n    return jax.shard_map(fn, mesh=MESH, in_specs=P('x'), out_specs=P('x'))\n\n\n"
        "@sharded\ndef block(b):\n    return {body}\n"
    ),
    "call": (
        "def sharded(fn):\n    return jax.shard_map(fn, mesh=MESH, in_specs=P('x'), out_specs=P('x'))\n\n\n"
        "def plain(b):\n    return {body}\n\n\nblock = sharded(plain)\n"
    ),
    "factory": (
        "def sharded(axis):\n    def deco(fn):\n"
        "        return jax.shard_map(fn, mesh=MESH, in_specs=P(axis), out_specs=P(axis))\n    return deco\n\n\n"
        "@sharded('x')\ndef block(b):\n    return {body}\n"
    ),
    "class": (
        "class Sharded:\n    def __init__(self, fn):\n"
        "        self.apply = jax.shard_map(fn, mesh=MESH, in_specs=P('x'), out_specs=P('x'))\n\n"
        "    def __call__(self, b):\n        return self.apply(b)\n\n\n"
        "@Sharded\ndef block(b):\n    return {body}\n"
    ),
}
TAIL = "\n\ndef main(xs):\n    return jax.vmap(block, spmd_axis_name='x')(xs)\n"


def _add_axis(source: str) -> list[Applicability]:
    found = [f for f in check_source(source) if f.code in ("SPMD001", "SPMD002")]
    assert found, "the collision is found"
    return [fix.applicability for f in found for fix in f.fixes if fix.id.transform is Transform.ADD_AXIS]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("body", [COND, INNER_VMAP], ids=["lax.cond", "inner vmap"])
def test_a_decorated_def_applying_h2_makes_add_axis_unsafe(shape: str, body: str) -> None:
    applied = _add_axis(HEAD + SHAPES[shape].format(body=body) + TAIL)
    assert applied and all(a is not Applicability.SAFE for a in applied), applied


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_decorated_def_without_h2_keeps_its_safe_add_axis(shape: str) -> None:
    assert Applicability.SAFE in _add_axis(HEAD + SHAPES[shape].format(body=PLAIN) + TAIL)


def test_a_decorator_passed_on_is_not_read() -> None:
    """The decorator given to another function may be applied there to anything: not proven."""
    source = HEAD + SHAPES["decorator"].format(body=PLAIN) + "\n\nREGISTRY = {'sharded': sharded}\n" + TAIL
    assert Applicability.SAFE not in _add_axis(source)


@pytest.mark.parametrize("body", ["ACTS[0](b)", "pick()(b)"])
def test_a_decorated_def_calling_what_the_walk_does_not_follow_is_not_proven(body: str) -> None:
    """A callable the reach cannot follow (an item of a list, a function's result) may apply `lax.cond`: the
    decorated def's reading stops there, and add-axis is not safe."""
    helpers = "ACTS = [jnp.tanh]\n\n\ndef pick():\n    return ACTS[0]\n\n\n"
    assert Applicability.SAFE not in _add_axis(HEAD + helpers + SHAPES["decorator"].format(body=body) + TAIL)
