import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

SCALE = 1.0


def setup():
    global SCALE
    SCALE = jnp.arange(1.0, 5.0)


setup()


def block(v):
    return jax.shard_map(lambda b: b * SCALE, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    from ref_impl import reference
    ref = reference(xs)
    ok = np.asarray(out).shape == ref.shape and np.allclose(np.asarray(out), ref)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
