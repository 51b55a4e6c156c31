"""The body captures `w`, a parameter that the vmap does not batch (in_axes=None)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def shift(w, s):
    return jax.shard_map(lambda b: b + w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(s)


def main():
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(shift, in_axes=(None, 0), spmd_axis_name='x')(jnp.float32(3.0), ss)
    reference = np.asarray(ss) + 3.0
    return result, reference
