"""Issue 22: `blk.apply(x, w)` where `blk` is a parameter without a class annotation, on the path from a vmap
with `spmd_axis_name='x'`. At run time `blk` is a `Block`, whose `apply` applies a shard_map whose in_specs
name 'x': JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (SPMD001). spmdfix does not know
which object `blk` receives; since a class of the module defines an `apply` that reaches a shard_map, the call
is an SPMD910 record naming `blk`, its line and why (never silence). A method no class of the module defines
so (`x.mean()`, a library model's `apply`) gives no record. Its readable twin (`blk: Block`) is found."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)


class Block:
    def apply(self, x, w):
        return jax.shard_map(lambda b, c: b * c, mesh=mesh, in_specs=(P('x'), P()), out_specs=P('x'))(x, w)


def layer(blk, x, w):
    return blk.apply(x, w)


def step(blk, xs, w):
    return jax.vmap(lambda x: layer(blk, x, w), spmd_axis_name='x')(xs)


def main():
    xs0 = np.arange(4 * 8 * 2, dtype=np.float32).reshape(4, 8, 2)
    w = jnp.float32(3.0)
    result = step(Block(), jnp.asarray(xs0), w)
    return result, xs0 * 3.0
