import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


vf = jax.vmap(block, spmd_axis_name='x')


def run(a, b):
    return vf(a), vf(b)


def main():
    a = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    b = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    outs = run(a, b)
    ok = all(np.allclose(np.asarray(o), x * 2.0) for o, x in zip(outs, (a, b)))
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
