import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from jax.experimental import mesh_utils
mesh = Mesh(mesh_utils.create_device_mesh((2, 4)), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)



def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0) and (True)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
