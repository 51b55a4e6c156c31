"""The body is jax.vmap(g), g closes over a per-example value, check_vma=True: the capture (SPMD003) cannot be
lifted (the inner vmap keeps failing under check_vma=True) and the inner vmap is hazard H2 (SPMD007)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scale_rows(w, x):
    return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)


def main():
    ws = jnp.arange(4, dtype=jnp.float32) + 1.0
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.jit(jax.vmap(scale_rows, spmd_axis_name='x'))(ws, xs)
    reference = np.asarray(xs) * np.asarray(ws)[:, None, None]
    return result, reference
