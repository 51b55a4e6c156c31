"""Issue 22 (silence5, item b): the fixes that became safe on the jax repository of the benchmark corpus once
`jtu.create_mesh(...)` is read as an Auto mesh with its literal shape (`jaxapi.TEST_MESH_NAMES`), each run as
the fix leaves it: tests/shard_map_test.py line 3717 (rename `'i' -> 'j'` on `create_mesh((4, 2), ('i',
'j'))`), line 3725 (drop-spmd-axis of `jax.vmap(g, spmd_axis_name='i')`, `g` a `check_vma=False` shard_map with
`out_specs=P(('i', 'j'))`) and line 1311 (drop-spmd-axis of the skipped test's nested vmap with a capture).

Run: `python safety/measurements/jtu_mesh_corpus_fixes.py` (8 virtual CPU devices; jax 0.10.2). Reference: numpy
(`np.sin`, `x[:, None] + y`), or the plain vmap itself where the program has no other.
"""

from __future__ import annotations

from functools import partial

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax import shard_map
from jax._src import test_util as jtu
from jax.sharding import PartitionSpec as P

from _outcome import header, show

header("fixes made safe on jax's tests by reading jtu.create_mesh")

mesh = jtu.create_mesh((4, 2), ('i', 'j'))
@partial(shard_map, mesh=mesh, in_specs=P('i'), out_specs=P('i'))
def f(x):
    return jnp.sin(x)
xs = jnp.arange(4 * 16.).reshape(4, 16)
ref = np.sin(np.asarray(xs))
show("3717 rename 'i'->'j'", lambda: jax.vmap(f, spmd_axis_name='j')(xs), ref)
show("3717 as written", lambda: jax.vmap(f, spmd_axis_name='i')(xs), ref)
@partial(shard_map, mesh=mesh, in_specs=P('j'), out_specs=P(('i', 'j')), check_vma=False)
def g(x):
    return jnp.sin(x)
show("3725 drop spmd_axis_name", lambda: jax.vmap(g)(xs), jax.vmap(g)(xs))
# reference for g: per example, in P('j') -> blocks of 8 per j; out tiled over (i,j): 8 shards of 8 -> 64
print("3725 plain vmap shape", jax.vmap(g)(xs).shape)

mesh2 = jtu.create_mesh((2, 2), ('x', 'y'))
def to_map_with_capture(x, y):
    def with_capture(y_slice):
        return x + y_slice
    vmap_with_capture = jax.vmap(with_capture)
    return shard_map(vmap_with_capture, mesh=mesh2, in_specs=P('y'), out_specs=P('y'))(y)
x = jnp.arange(2).reshape(2)
y = jnp.arange(2 * 4).reshape(2, 4)
ref2 = np.asarray(x)[:, None] + np.asarray(y)
show("1311 as written (spmd 'x')", lambda: jax.vmap(to_map_with_capture, spmd_axis_name='x')(x, y), ref2)
show("1311 drop spmd_axis_name", lambda: jax.vmap(to_map_with_capture)(x, y), ref2)
show("1311 drop, jit", lambda: jax.jit(jax.vmap(to_map_with_capture))(x, y), ref2)
