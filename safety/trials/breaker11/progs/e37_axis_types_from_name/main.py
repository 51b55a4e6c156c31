import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

TYPES = (AxisType.Auto, AxisType.Auto)
mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=TYPES)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def step(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    pass
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
