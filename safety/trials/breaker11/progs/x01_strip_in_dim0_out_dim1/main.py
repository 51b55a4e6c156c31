import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x', None), out_specs=P(None, 'x'))(v)


def step(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8)
    out = np.asarray(step(xs))
    ref = np.concatenate([xs[:, :2], xs[:, 2:]], axis=2) * 2.0
    print("RESULT: match" if out.shape == ref.shape and np.allclose(out, ref) else "RESULT: mismatch")


main()
