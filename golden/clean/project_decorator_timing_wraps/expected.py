"""A pass-through decorator of the project (`@timed`, a `functools.wraps` wrapper calling the function) over a
function that applies shard_map on `'data'`, vmapped with `spmd_axis_name='model'`: runs. spmdfix follows the
decorator's return, reads its parameter as the decorated function, and reports nothing (an SPMD910 record at
the decorator before)."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def timed(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args)
    return inner


@timed
def softplus(x):
    return jax.shard_map(jnp.sin, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(softplus, spmd_axis_name="model")(xs), np.sin(xs)
