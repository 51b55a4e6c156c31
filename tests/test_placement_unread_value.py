"""The batch placement of a vmapped input whose value is neither a placement (`jax.device_put`, `reshard`) nor a
value known not to be placed: a helper's result, a container's element, a parameter of a function with a decorator
spmdfix does not know, any value of a module calling `exec`/`eval` (`vmap_calls.VmapCallAnalysis._read_sharding`).

breaker11 s01-s04, s07, s08, s10: `xs = to_batch(xs)` with `to_batch` resharding to `P('x', None)` before an spmd
vmap reaching a shard_map whose `axis_names` names the spmd axis raised SPMD008's `axis_names` error while spmdfix
said "All checks passed!". The placement is unknown: an SPMD910 record where SPMD008 reads it, no finding; a value
built by numpy / jax.numpy / jax.random from unplaced values gives none. Goldens: unfollowed/batch_placement_*
(helper call, list box, decorator, exec).
"""

from __future__ import annotations

import textwrap

import pytest

from spmdfix.api import analyse_source, check_source

HEADER = """
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), axis_names=NAMES)(x)


def to_batch(a):
    return jax.sharding.reshard(a, P('x', None))


def on_batch_axis(fn):
    @functools.wraps(fn)
    def wrapped(a):
        return fn(jax.sharding.reshard(a, P('x', None)))
    return wrapped
"""

# (the module text after HEADER, words the record holds)
UNREAD = {
    "helper": ("""
def step(xs):
    with jax.set_mesh(mesh):
        xs = to_batch(xs)
        return jax.vmap(block, spmd_axis_name='x')(xs)
""", "the result of `to_batch(...)`"),
    "helper_after_reshard": ("""
def step(xs):
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        xs = to_batch(xs)
        return jax.vmap(block, spmd_axis_name='x')(xs)
""", "the result of `to_batch(...)`"),
    "inline_helper": ("""
def step(xs):
    with jax.set_mesh(mesh):
        return jax.vmap(block, spmd_axis_name='x')(to_batch(xs))
""", "the result of `to_batch(...)`"),
    "jnp_of_helper": ("""
def step(xs):
    with jax.set_mesh(mesh):
        return jax.vmap(block, spmd_axis_name='x')(jnp.sin(to_batch(xs)))
""", "the result of `jnp.sin(...)`"),
    "jnp_out_sharding": ("""
def step():
    with jax.set_mesh(mesh):
        xs = jnp.zeros((4, 8), out_sharding=P('x', None))
        return jax.vmap(block, spmd_axis_name='x')(xs)
""", "the result of `jnp.zeros(...)`"),
    "list_box": ("""
def step(xs):
    with jax.set_mesh(mesh):
        box = [jax.sharding.reshard(xs, P(None, 'y'))]
        box[0] = to_batch(box[0])
        return jax.vmap(block, spmd_axis_name='x')(box[0])
""", "`box[0]` is an expression spmdfix does not read"),
    "decorator": ("""
@on_batch_axis
def run(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def step(xs):
    with jax.set_mesh(mesh):
        return run(jax.sharding.reshard(xs, P(None, 'y')))
""", "decorated by `@on_batch_axis`"),
    "exec": ("""
SPEC = P(None, 'y')
exec("SPEC = P('x', None)")


def step(xs):
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(xs, SPEC)
        return jax.vmap(block, spmd_axis_name='x')(xs)
""", "its module calls `exec`"),
}

# module texts after HEADER whose batch is known not to be placed on 'x' (or placed on it: SPMD008)
KNOWN = {
    "numpy": """
def step():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        return jax.vmap(block, spmd_axis_name='x')(xs)
""",
    "jnp_arith": """
def step():
    n = 8
    xs = jnp.ones((4, n)) * 2.0 + jnp.arange(float(n))[None, :]
    with jax.set_mesh(mesh):
        return jax.vmap(block, spmd_axis_name='x')(xs)
""",
    "random": """
def step():
    key = jax.random.key(0)
    xs = jax.random.normal(jax.random.split(key)[0], (4, 8))
    with jax.set_mesh(mesh):
        return jax.vmap(block, spmd_axis_name='x')(xs)
""",
    "jit_decorator": """
@jax.jit
def run(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def step(xs):
    with jax.set_mesh(mesh):
        return run(jax.sharding.reshard(xs, P(None, 'y')))
""",
}


def _source(tail: str, names: str) -> str:
    return HEADER.replace("NAMES", names) + textwrap.dedent(tail)


@pytest.mark.parametrize("form", sorted(UNREAD))
def test_an_unread_value_is_an_spmd910_record_where_spmd008_reads_it(form):
    tail, words = UNREAD[form]
    text = _source(tail, "{'x', 'y'}")
    records = [u.what for u in analyse_source(text).unfollowed]
    assert len(records) == 1, records
    assert "the placement of the vmapped input" in records[0] and words in records[0], records[0]
    assert not [f for f in check_source(text) if f.code == "SPMD008"]


@pytest.mark.parametrize("form", sorted(UNREAD))
def test_no_record_where_the_placement_decides_nothing(form):
    # `axis_names` naming only 'y' and `check_vma` on: SPMD008 does not read the placement
    tail, _ = UNREAD[form]
    text = _source(tail, "{'y'}").replace("axis_names=", "check_vma=True, axis_names=")
    assert not analyse_source(text).unfollowed


@pytest.mark.parametrize("form", sorted(KNOWN))
def test_a_value_known_unplaced_gives_no_record(form):
    text = _source(KNOWN[form], "{'x', 'y'}")
    assert not analyse_source(text).unfollowed, [u.what for u in analyse_source(text).unfollowed]


def test_a_visible_placement_on_the_spmd_axis_is_still_spmd008():
    text = _source("""
def step(xs):
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(np.ones((4, 8)), P('x', None))
        return jax.vmap(block, spmd_axis_name='x')(xs)
""", "{'x', 'y'}")
    assert [f.code for f in check_source(text)] == ["SPMD008"]
    assert not analyse_source(text).unfollowed
