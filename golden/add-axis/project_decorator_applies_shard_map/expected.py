"""breaker4's p30b: a decorator defined in the project applies shard_map to the function it decorates
(`@data_parallel`), and the decorated function is vmapped with `spmd_axis_name='data'`, which the specs name:
JAX raises SPMD001's error. What runs is what the decorator returns: spmdfix follows it as it follows the call
form (`data_parallel(softplus)`), and finds the collision at the decorator's specs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ("batch", "data", "model"))


def data_parallel(fn):
    return jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))


@data_parallel
def softplus(x):
    return jnp.logaddexp(x, 0.0)


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(softplus, spmd_axis_name="batch")(xs), np.logaddexp(xs, 0.0)
