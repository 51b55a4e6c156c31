import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.zeros((8, 8), dtype=jnp.float32)
    xs = xs.reshape(16, 4)[:6].reshape(6, 4)
    xs = jnp.tile(xs, (1, 2)) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * 2.0) else "RESULT: mismatch")


main()
