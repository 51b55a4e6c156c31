"""A binary body under an inner jax.vmap with check_vma=True, on an Explicit mesh whose batch is placed on the
spmd axis: hazard H2 does not arise there (measured), so no SPMD007."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(b):
    return jax.vmap(lambda r: r * 2.0 + 1.0)(b)


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def row(r):
    return jax.vmap(lambda v: jax.shard_map(lambda u: u - 0.5 * u, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v))(r)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    ys = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None, 'y')))
    a = jax.vmap(block, spmd_axis_name='x')(xs)
    b = jax.jit(jax.vmap(row, spmd_axis_name='x'))(ys)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    reference = np.concatenate([xs0 * 2.0 + 1.0, xs0 - 0.5 * xs0])
    return result, reference
