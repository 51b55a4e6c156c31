"""in_specs name only 'model'; the body scales by axis_index('data') + 1 (pmap habit) and out_specs name 'data'
(the result stacks one copy a data shard); spmd vmap over 'data'. (A first version kept out_specs P(None,
'model'): that program raises without any vmap, its output varying over 'data'.)"""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def layer(x):
    def body(b):
        return b * (jax.lax.axis_index('data') + 1).astype(b.dtype)
    return jax.shard_map(body, mesh=MESH, in_specs=P(None, 'model'), out_specs=P('data', 'model'))(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    ref = np.stack([np.concatenate([np.asarray(x), 2 * np.asarray(x)]) for x in xs])
    return jax.vmap(layer, spmd_axis_name='data')(xs), ref
