import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def layer(x, gain):
    def act(b):
        return jnp.tanh(b * gain)
    h = jax.shard_map(act, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)
    return jax.shard_map(act, mesh=mesh, in_specs=P(), out_specs=P())(h)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    g = jnp.array([1.0, 0.5, 2.0, 3.0])
    out = jax.jit(jax.vmap(layer, spmd_axis_name="data"))(x, g)
    gn = np.asarray(g)[:, None]
    ref = np.tanh(np.tanh(np.asarray(x) * gn) * gn)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
