import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def sharding_for(m):
    return NamedSharding(m, P())


def forward(v):
    h = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    # spmdfix does not read what `sharding_for` returns: it may name 'y', where a renamed spmd axis raises
    # DuplicateSpecError, so the rename is unsafe and says so (this one replicates: the rename runs).
    return jax.jit(lambda t: t * 3.0, out_shardings=sharding_for(mesh))(h)


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.vmap(forward, spmd_axis_name='y')(xs)
    reference = (np.asarray(xs) * 2.0 + 1.0) * 3.0
    return result, reference
