"""A plain jax.vmap (`apply`) whose only call here places its input at the block dimension (`P(None, None, 'x')`:
the batch dimension and the one the inner vmap maps on no axis); another module of the project imports `apply`
(pkg/serve.py), so its calls are not all followed. Block's shard_map body closes over `m = x.mean() + 2.0`,
reached through an inner `jax.vmap(block)`: JAX refuses the call below (`Closing over inputs to shard_map`:
safety/measurements/plain_vmap_inner_capture_staged.py, part 1) whatever the other module passes. Was silent
(the inner vmap's dimension was asked of every call, all followed); SPMD003 from the calls followed."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    return jax.shard_map(lambda b: (b - b.mean()) * m, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


@jax.jit
@jax.vmap
def apply(x):
    return jax.vmap(block)(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    blocks = xs0.reshape(8, 8, 2, 4)
    reference = (blocks - blocks.mean(axis=-1, keepdims=True)).reshape(8, 8, 8) * (xs0.mean(axis=-1, keepdims=True) + 2.0)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P(None, None, 'x'))
        result = apply(xs)
    return result, reference
