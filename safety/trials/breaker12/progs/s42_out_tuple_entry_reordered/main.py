import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(('x', 'y')), out_specs=P(('y', 'x')))(v)


def main():
    xs = np.arange(4 * 16, dtype=np.float32).reshape(4, 16) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    from ref_impl import reference
    ref = reference(xs)
    ok = np.asarray(out).shape == ref.shape and np.allclose(np.asarray(out), ref)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
