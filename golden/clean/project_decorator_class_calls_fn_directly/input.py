"""A class of the project as a decorator whose `__init__` builds `jax.shard_map(fn, ...)` with specs naming 'data'
but whose `__call__` calls the function itself (`return self.fn(x)`): the kept shard_map never runs, and the vmap
with `spmd_axis_name='data'` runs and matches (safety/measurements/class_decorator_shard_map.py, (e)). `__call__`
is followed; it reaches no shard_map: no finding."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class Direct:
    def __init__(self, fn):
        self.fn = fn
        self.sharded = jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))

    def __call__(self, x):
        return self.fn(x)


@Direct
def swish(x):
    return x * jax.nn.sigmoid(x)


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(swish, spmd_axis_name="data")(xs), xs / (1.0 + np.exp(-xs))
