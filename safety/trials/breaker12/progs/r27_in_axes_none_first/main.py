import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(w, v):
    return jax.shard_map(lambda c, b: b * c, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(w, v)


def main():
    w = np.full((8,), 2.0, dtype=np.float32)
    table = np.zeros((8, 8), dtype=np.float32)
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, in_axes=(None, 0), spmd_axis_name='x')(w + table[0], xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
