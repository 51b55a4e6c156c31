"""Two captured per-example values; the specs are spelled jax.P, so the added entry is jax.P() too."""
import jax
import jax.numpy as jnp
import numpy as np

mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def affine(w, c, s):
    return jax.shard_map(lambda b: b * w + c, mesh=mesh, in_specs=jax.P('y'), out_specs=jax.P('y'))(s)


def main():
    ws = jnp.arange(4, dtype=jnp.float32) + 1.0
    cs = jnp.arange(4, dtype=jnp.float32) * 10.0
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(affine, spmd_axis_name='x')(ws, cs, ss)
    reference = np.asarray(ss) * np.asarray(ws)[:, None] + np.asarray(cs)[:, None]
    return result, reference
