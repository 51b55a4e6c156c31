import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x):
    w = x[:4]

    def body(b):
        return jnp.where(b > 0, w, 0.0)

    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    blocks = xs0.reshape(8, 2, 4)
    reference = np.where(blocks > 0, xs0[:, None, :4], 0.0).reshape(8, 8)
    return jax.vmap(block)(xs), reference
