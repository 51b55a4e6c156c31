import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v, w):
    return jax.shard_map(lambda b, c: b * c, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(v, w)


def main():
    w = np.ones((8, 8), dtype=np.float32) * 2.0
    xs = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    out = jax.vmap(block, in_axes=(1, None), spmd_axis_name='x')(xs, w[0])
    print("RESULT: match" if np.allclose(np.asarray(out), xs.T * 2.0) else "RESULT: mismatch")


main()
