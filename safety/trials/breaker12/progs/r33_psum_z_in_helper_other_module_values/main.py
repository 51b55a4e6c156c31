import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from pkg.ops import add_total

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def layer(x):
    return jax.shard_map(add_total, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'), check_vma=False)(x)


def main():
    xs = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    out = jax.vmap(layer, spmd_axis_name='x')(xs)
    x = np.asarray(xs)
    block_sums = x.reshape(4, 2, 2, 2, 2).sum(axis=(2, 4), keepdims=True)
    ref = (x.reshape(4, 2, 2, 2, 2) + 2.0 * block_sums).reshape(4, 4, 4)
    print("RESULT: match" if np.allclose(np.asarray(out), ref) else "RESULT: mismatch")


main()
