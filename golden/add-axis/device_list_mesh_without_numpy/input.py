import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P

# A one-axis mesh over a slice of the device list, in a module without numpy: add-axis nests the list where
# it is passed ([devices]), which needs no import; the name `devices` itself is left as it is.
devices = jax.devices()[:4]
mesh = Mesh(devices, ('i',))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0 + jax.lax.axis_index('i'), mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(layer, spmd_axis_name='i'))(xs)
    reference = jax.vmap(layer)(xs), len(devices)
    return (result, len(devices)), reference
