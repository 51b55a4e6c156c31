"""breaker6 r04: a class of the project used as a decorator (`@DataParallel`): `swish` names an instance whose
`__init__` keeps `jax.shard_map(fn, ...)` with specs naming 'data' and whose `__call__` applies it. Vmapped with
`spmd_axis_name='data'`, JAX raises SPMD001's error; spmdfix said "All checks passed!". The class's `__call__`
is not followed: an SPMD910 record at the decorator."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class DataParallel:
    def __init__(self, fn):
        self.fn = fn
        self.sharded = jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))

    def __call__(self, x):
        return self.sharded(x)


@DataParallel
def swish(x):
    return x * jax.nn.sigmoid(x)


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(swish, spmd_axis_name="data")(xs), xs / (1.0 + np.exp(-xs))
