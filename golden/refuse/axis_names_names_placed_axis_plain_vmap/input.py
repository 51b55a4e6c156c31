"""A plain `jax.vmap` (no spmd_axis_name) over a batch placed on the Explicit axis `'data'` by
`jax.sharding.reshard(xs, P('data', None))` under `with jax.set_mesh(mesh):`, reaching a shard_map whose
`axis_names={'data'}` names that axis (fuzz seed 40027). The vmap maps `'data'` away: JAX raises `jax.shard_map
requires axis_names=frozenset({'data'}) to be a subset of mesh.axis_names=frozenset({'model'})`, eager and under
jit, any check_vma, as with `jax.device_put` (safety/measurements/axis_names_placed_plain_vmap.py): SPMD008.
No fix is measured for it: nothing applied.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'))


def block(x):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P(), out_specs=P(), axis_names={'data'})(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(xs, P('data', None))
        result = jax.vmap(block)(xs)
    return result, xs0 - xs0.mean(axis=1, keepdims=True)
