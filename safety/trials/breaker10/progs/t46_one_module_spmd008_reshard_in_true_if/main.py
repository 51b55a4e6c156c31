import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(x)


def step(xs, flip=True):
    with jax.set_mesh(mesh):
        if flip:
            xs = jax.sharding.reshard(xs, P('x', None))
        return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(32, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 + 1.0) else "RESULT: mismatch")


main()
