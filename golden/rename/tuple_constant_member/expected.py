import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# `X` names the data axis in the specs and, inside a tuple, in spmd_axis_name. The rename replaces the
# member where it is written; the constant stays, so the specs keep meaning 'x'.
X = 'x'
mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(X), out_specs=P(X))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(layer, spmd_axis_name=('y',))(xs), np.asarray(xs) * 2.0
