import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x, w):
    m = x.mean() + 2.0

    def body(b, w):
        return jnp.maximum(w, m) + b

    return jax.shard_map(body, mesh=mesh, in_specs=(P('x'), P()), out_specs=P('x'), axis_names={'x'})(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    m = xs0.mean(axis=1, keepdims=True) + 2.0
    reference = np.maximum(ws0[:, None], m) + xs0
    return jax.vmap(block)(xs, ws), reference
