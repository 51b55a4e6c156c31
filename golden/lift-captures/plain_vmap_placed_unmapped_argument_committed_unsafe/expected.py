"""As refuse/plain_vmap_placed_unmapped_argument_committed, with --unsafe-fixes: lift-captures makes `w` an
operand with in_spec P(); for an argument placed `P()` the lifted program runs and matches (safety/measurements/plain_vmap_placed_spellings.py, part 1)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P()))
    result = jax.vmap(block, in_axes=(0, None))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[None, :]
