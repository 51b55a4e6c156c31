import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from pkg.train import step


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8) / 64.0
    w = jnp.float32(1.5)
    ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))

    def ref_block(x):
        return jax.shard_map(
            lambda b, v: (b - b.mean()) * jax.lax.psum(v, 'y'),
            mesh=ref_mesh, in_specs=(P('x', None), P()), out_specs=P('x', None),
        )(x, w)

    return step(xs, w), jax.vmap(ref_block)(xs)
