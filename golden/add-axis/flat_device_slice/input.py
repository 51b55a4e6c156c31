import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# A one-axis mesh over a flat slice of the devices: the devices argument is reshaped where it is passed.
mesh = Mesh(np.array(jax.devices()[:2]), ('i',))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(layer, spmd_axis_name='i')(xs), np.asarray(xs) * 2.0
