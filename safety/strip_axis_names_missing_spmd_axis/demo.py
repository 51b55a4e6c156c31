"""Original: axis_names={'x'}, specs P('x'), spmd_axis_name=('x', 'y'). Applied anyway: strip -> P(None); axis_names still lacks 'y'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P(None), axis_names={'x'})(x)


def main():
    xs = (jnp.arange(64, dtype=jnp.float32).reshape(8, 8) - 21.0) / 16.0
    result = jax.vmap(block, spmd_axis_name=('x', 'y'))(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
