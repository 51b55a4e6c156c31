import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

HI = (5.0, 6.0, 7.0, 8.0)


def block(v):
    return jax.shard_map(lambda b: jnp.clip(b, 0.0, HI), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    ref = np.stack([np.clip(v, 0.0, np.tile([5.0, 6.0, 7.0, 8.0], 2)) for v in xs])
    ok = np.asarray(out).shape == ref.shape and np.allclose(np.asarray(out), ref)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
