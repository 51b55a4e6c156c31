"""A class of the project as a decorator (`@ModelParallel`: `__init__` keeps `jax.shard_map(fn, ...)`, `__call__`
applies it) over a `def` nested in the vmapped function, closing over `shift`, which the vmap with
`spmd_axis_name='data'` batches: JAX fails (ManualAxisType; safety/measurements/class_decorator_shard_map.py, (c)).
The shard_map body is `__init__`'s parameter, whose captures are not read: the class is not followed, an SPMD910
record at the decorator naming why (never a finding without the captures)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class ModelParallel:
    def __init__(self, fn):
        self.sharded = jax.shard_map(fn, mesh=MESH, in_specs=P("model"), out_specs=P("model"))

    def __call__(self, x):
        return self.sharded(x)


def layer(x, shift):
    @ModelParallel
    def body(b):
        return jnp.tanh(b + shift)
    return body(x)


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    shifts = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    return jax.vmap(layer, spmd_axis_name="data")(xs, shifts), np.tanh(xs + shifts[:, None])
