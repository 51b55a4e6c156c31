"""A plain `jax.vmap` (no spmd_axis_name) over inputs placed on Explicit mesh axis 'x' by
`jax.sharding.reshard`, reaching a shard_map that names 'x' and whose body gets the batched `w` bound by
`functools.partial` (fuzz seed 70217): JAX raises `shard_map in_specs argument must refer to an axis marked as
manual` (SPMD006). Stripping 'x' leaves the partial-bound capture, which still fails (`For primitive mul,
context mesh ... should match the aval mesh`), so strip is unsafe, naming `w`; nothing applied."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P


mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(functools.partial(body, w=w), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    ws = jnp.asarray(ws0)
    xs = jax.sharding.reshard(xs, NamedSharding(mesh, P('x', None)))
    ws = jax.sharding.reshard(ws, NamedSharding(mesh, P('x')))
    reference = (xs0 * 2.0 + 1.0) * ws0[:, None]
    result = jax.vmap(apply, in_axes=(0, 0))(xs, ws)
    return result, reference
