"""A plain jax.vmap whose calls go through a decorator of the project stacked above it (`@logged`, whose body
spmdfix does not follow: it may pass the call's arguments on otherwise), over an input placed at its block dimension
(`P(None, None, 'x')`), an inner `jax.vmap(block)` on the way, block's shard_map body closing over
`m = x.mean() + 2.0`. Where the calls place the dimension the inner vmap maps decides SPMD003 (placed on no axis,
as here, JAX refuses it: `Closing over inputs to shard_map`, safety/measurements/plain_vmap_inner_capture_staged.py,
part 1; placed on 'y' it runs with check_vma=True), and the decorator hides it: an SPMD910 record at the decorator,
not silence."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def logged(f):
    @functools.wraps(f)
    def wrapper(*args):
        return f(*args)
    return wrapper


def block(x):
    m = x.mean() + 2.0
    return jax.shard_map(lambda b: (b - b.mean()) * m, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


@jax.jit
@logged
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
