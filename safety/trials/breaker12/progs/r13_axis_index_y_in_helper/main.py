import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def offset(b):
    return b + jax.lax.axis_index('y').astype(b.dtype)


def block(v):
    return jax.shard_map(offset, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs) else "RESULT: mismatch")


main()
