"""A decorator factory of the project (`@data_parallel("data")`) whose decorator returns a `functools.wraps`
wrapper applying shard_map to the decorated function, under a second project decorator (`@timed`) that only
calls it: JAX raises SPMD001's error under `spmd_axis_name='data'`. spmdfix follows the factory to the decorator
it returns, and that decorator's return (the wrapper) to the shard_map, the spec entry `axis` read from the
decorator call's argument."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def data_parallel(axis):
    def deco(fn):
        @functools.wraps(fn)
        def wrapped(x):
            return jax.shard_map(fn, mesh=MESH, in_specs=P(axis), out_specs=P(axis))(x)
        return wrapped
    return deco


def timed(fn):
    @functools.wraps(fn)
    def inner(*args):
        out = fn(*args)
        return out
    return inner


@timed
@data_parallel("data")
def softplus(x):
    return jnp.logaddexp(x, 0.0)


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(softplus, spmd_axis_name="data")(xs), np.logaddexp(xs, 0.0)
