import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))

# The vmapped function jits its last step with an output sharding over 'y': as the spmd axis, 'y' would be
# prepended to that sharding (P('y', None, 'y'), DuplicateSpecError), so rename skips 'y' and picks 'z'.
COLUMNS = NamedSharding(mesh, P(None, 'y'))


def forward(v):
    h = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return jax.jit(lambda t: t * 3.0, out_shardings=COLUMNS)(h)


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.vmap(forward, spmd_axis_name='z')(xs)
    reference = (np.asarray(xs) * 2.0 + 1.0) * 3.0
    return result, reference
