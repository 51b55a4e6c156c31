import jax, jax.numpy as jnp, numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


def build_mesh(explicit=False):
    kind = AxisType.Explicit if explicit else AxisType.Auto
    return jax.make_mesh((2, 4), ('data', 'model'), axis_types=(kind,) * 2)


EMESH = build_mesh(explicit=True)


def double(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=EMESH, in_specs=P('data', None), out_specs=P('data', None))(x)


def main():
    with jax.set_mesh(EMESH):
        xs = jax.device_put(jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4), NamedSharding(EMESH, P('data')))
        out = jax.vmap(double)(xs)
    return out, np.asarray(xs) * 2.0
