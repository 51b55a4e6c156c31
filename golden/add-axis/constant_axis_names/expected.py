import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# Axis names come from module constants, also inside tuples: the mesh names, a spec's tuple entry and
# spmd_axis_name all resolve. The constants themselves are never edited (other code reads them).
AX = 'x'
Y = 'y'
mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', AX, Y))


def layer(x):
    return jax.shard_map(lambda b: b * 3.0, mesh=mesh, in_specs=P(('x', Y)), out_specs=P(('x', Y)))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(layer, spmd_axis_name='batch')(xs), np.asarray(xs) * 3.0
