import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x, w):
    def body(b):
        return jnp.abs(b) ** w

    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    reference = np.abs(xs0) ** ws0[:, None]
    return jax.vmap(block)(xs, ws), reference
