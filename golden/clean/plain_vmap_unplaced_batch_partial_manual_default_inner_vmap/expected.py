import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x, w):
    def body(b, s=w):
        return jax.vmap(lambda r: r - r.mean())(b) * s

    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names=frozenset(mesh.axis_names) - {'y'})(x)


def main():
    xs0 = (np.arange(128, dtype=np.float32).reshape(8, 4, 4) - 42.0) / 32.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    reference = (xs0 - xs0.mean(axis=2, keepdims=True)) * ws0[:, None, None]
    return jax.vmap(block)(xs, ws), reference
