import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

NAMES = ('x', 'y')
mesh = jax.make_mesh((2, 4), NAMES, axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def step(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    out2 = jax.shard_map(lambda b: b * 1.0, mesh=mesh, in_specs=P(*NAMES), out_specs=P(*NAMES))(xs)
    out = out * np.asarray(out2) / xs.clip(1)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
