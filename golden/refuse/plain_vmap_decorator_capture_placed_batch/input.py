"""A plain `jax.vmap` decorator over a batch placed on Explicit mesh axis 'x', reaching a shard_map that names
'x' and whose body closes over `m`, computed from the batch (fuzz seed 23644): JAX raises `shard_map in_specs
argument must refer to an axis marked as manual` (SPMD006). The body's closure is not on strip's allowlist, so
strip is unsafe; move-placement is always unsafe: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


@jax.vmap
def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    return apply(xs), (xs0 * 2.0 + 1.0) * (xs0.mean(axis=1, keepdims=True) + 2.0)
