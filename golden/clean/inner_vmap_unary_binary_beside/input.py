"""A shard_map body applying an inner jax.vmap of a unary lambda, with binary steps outside that vmap
(`* b`, `+ n`), under spmd_axis_name='y' with check_vma on: it runs and matches (no SPMD007). Hazard H2 needs a
binary step inside the inner vmapped function, or an inner vmap between the spmd vmap and the shard_map."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x):
    n = mesh.devices.shape[0]

    def body(b):
        return jax.vmap(lambda r: jnp.sin(r))(b * 2.0) * b + n
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    result = jax.vmap(block, spmd_axis_name='y')(jnp.asarray(xs0))
    return result, np.sin(xs0 * 2.0) * xs0 + 2
