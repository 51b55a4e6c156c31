"""A plain jax.vmap under jax.jit whose batch is placed on the Explicit axis 'x' (jax.device_put) reaches a
shard_map with in_specs naming another axis ('y') and check_vma=False, whose body closes over `s`, computed
from a batched argument: JAX fails (`For primitive mul, context mesh ...`; with check_vma=True it runs), so
SPMD003 is reported; lift-captures makes s an operand with P() and the program runs
(safety/measurements/capture_plain_vmap_placed.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    s = jnp.exp(w)
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         check_vma=False)(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x')))
    result = jax.jit(jax.vmap(block, in_axes=(0, 0)))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * np.exp(ws0)[:, None]
