"""An all-replicated shard_map body under an spmd vmap closes over `W = jnp.asarray(cfg.w)`, an (8, 8) array built
from an attribute spmdfix does not read: main read `asarray` only of a list display or of another array, so `W`
was no array and nothing was said. Its shape is not read, so neither is whether it meets the block at a lower
rank: an SPMD910 record naming the call, never a guessed finding. `S = jnp.asarray(2.0)` is a scalar: no record.
JAX fails (ManualAxisType): `W` has the block's rank 2."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


class Cfg:
    w = [[1.5] * 8] * 8


cfg = Cfg()
mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W = jnp.asarray(cfg.w)
S = jnp.asarray(2.0)


def body(b):
    return b * W * S


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs = np.ones((8, 8, 8), np.float32)
    return jax.vmap(block, spmd_axis_name='data')(xs), xs * np.asarray(W) * 2.0
