import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x):
    m = x.mean() + 2.0

    def body(b):
        return jnp.exp(m) * b

    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


@jax.jit
@jax.vmap
def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(32, dtype=np.float32).reshape(4, 8) - 10.0) / 8.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    reference = np.stack([np.exp(x.mean() + 2.0) * x for x in xs0])
    return apply(xs), reference
