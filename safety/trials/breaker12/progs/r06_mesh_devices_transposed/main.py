import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

devices = np.array(jax.devices()).reshape(4, 2).T
mesh = Mesh(devices, ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
