import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    rows = [np.full((8,), i, dtype=np.float32) for i in range(6)]
    xs = jnp.stack(rows)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * 2.0) else "RESULT: mismatch")


main()
