"""A shard_map body with all-replicated specs closing over `w`, a value the spmd vmap batches, on an Explicit mesh
whose batch is placed on the spmd axis 'y' (every mapped input), check_vma on: unlike a body whose specs name a
data axis, it fails (`For primitive mul, context mesh ...`, eager and under jit), so SPMD003 is reported;
lift-captures makes w an operand and the program runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return b * w
    return jax.shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(8, 4)[:, 0]
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('y')))
    result = jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
    return result, xs0 * ws0[:, None]
