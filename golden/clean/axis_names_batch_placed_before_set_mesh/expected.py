"""`axis_names={'x'}` on an Explicit mesh under the spmd vmap over `'y'`, the batch placed `P('y', 'x')` on the
spmd axis before a `with jax.set_mesh(mesh):` block that calls the vmap (and a `reshard` to a bare spec after
the shard_map): the vmap takes `'y'` out of the shard_map's mesh, so `axis_names` need not name it; runs and
matches, eager (fuzz seed 23184; safety/measurements/h4_explicit_placed.py measured the placed form). The
placement is read through the `with` block: the value at the call is the last one assigned before it.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    y = jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)
    y = jax.sharding.reshard(y, P('x'))
    return y


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', 'x')))
    with jax.set_mesh(mesh):
        result = jax.vmap(block, spmd_axis_name='y')(xs)
    return result, xs0 * 2.0 + 1.0
