import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

BATCH_AXIS = 'x'
ROWS = P('x', 'z')
COLS = P('z')
OUT = P('x', 'z')

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def scale_columns(v, w):
    return v * w


def forward(x, w):
    return jax.shard_map(scale_columns, mesh=mesh, in_specs=(ROWS, COLS), out_specs=OUT)(x, w)


def main():
    x = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    w = jnp.array([1.0, 2.0, 3.0, 4.0], dtype=jnp.float32)
    result = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=BATCH_AXIS)(x, w)
    reference = np.asarray(x) * np.asarray(w)
    return result, reference
