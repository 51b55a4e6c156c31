import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from pkg.layers import constrain

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    h = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return constrain(h, mesh)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
