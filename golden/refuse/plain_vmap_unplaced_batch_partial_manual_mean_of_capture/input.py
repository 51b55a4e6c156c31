import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x, w):
    def body(b):
        return jnp.sin(b) * jnp.mean(w)

    return jax.shard_map(body, mesh=mesh, in_specs=P('model'), out_specs=P('model'), axis_names={'model'})(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'data')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    reference = np.sin(xs0) * ws0[:, None]
    return jax.vmap(block)(xs, ws), reference
