"""Fuzz seed 410072's form: a plain jax.vmap under jax.jit (`@jax.jit` above `@jax.vmap`) over an input placed under
`jax.set_mesh` with `reshard` at its block dimension only (`P(None, None, 'x')`: the batch dimension and the one the
inner vmap maps on no axis); the vmapped function applies an inner `jax.vmap(block)`, and block applies
`jax.jit(jax.shard_map(...))` whose body closes over `m = x.mean() + 2.0`. JAX refuses it (`Closing over inputs to
shard_map where the input is sharded on Explicit axes`, eager and under jit, check_vma True and False:
safety/measurements/plain_vmap_inner_capture_staged.py, part 1). The capture is staged by the jit around the
shard_map and its input is known only back through the inner vmap: SPMD003 (was silent). Nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    return jax.jit(jax.shard_map(lambda b: (b - b.mean()) * m, mesh=mesh, in_specs=P('x'), out_specs=P('x')))(x)


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
