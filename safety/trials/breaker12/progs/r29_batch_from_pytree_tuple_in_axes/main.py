import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(pair):
    a, b = pair
    return jax.shard_map(lambda u, w: u * w, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(a, b)


def main():
    a = np.ones((8, 8), dtype=np.float32) * 2.0
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, in_axes=((None, 0),), spmd_axis_name='x')((a[0], xs))
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
