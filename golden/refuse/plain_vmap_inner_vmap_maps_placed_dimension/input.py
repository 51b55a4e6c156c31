"""A plain outer `jax.vmap` (no spmd_axis_name) over an input placed `P(None, 'x', None)` on an Explicit mesh:
the batch is not placed, the dimension after it is, and an inner `jax.vmap` maps that dimension away before a
shard_map whose specs name 'x'. 'x' is then not manual there: JAX raises `shard_map in_specs argument must
refer to an axis marked as manual`, eager and under jit, any check_vma (fuzz seed 2889;
safety/measurements/open_items_issue22_kind9.py, part D). SPMD006, with no fix measured."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ('x',))


def block(x):
    return jax.shard_map(lambda b: jnp.where(b > 1.0, b, 0.5 * b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    result = jax.vmap(apply)(xs)
    return result, np.where(xs0 > 1.0, xs0, 0.5 * xs0)
