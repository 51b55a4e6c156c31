import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P(None, 'x')))

    def replace():
        nonlocal placed
        placed = jax.device_put(placed, NamedSharding(mesh, P('x', None)))

    replace()
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(placed)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
