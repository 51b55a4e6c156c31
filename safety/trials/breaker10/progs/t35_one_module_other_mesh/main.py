import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
other = jax.make_mesh((4, 2), ('y', 'x'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def accumulate(fn, xs):
    return jax.jit(jax.vmap(fn, spmd_axis_name='x'))(xs)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(other, P(None, 'x')))
    out = accumulate(block, placed)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
