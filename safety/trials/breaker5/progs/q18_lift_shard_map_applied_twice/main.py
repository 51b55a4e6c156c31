import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def layer(x, gain):
    act = jax.shard_map(lambda b: jnp.tanh(b * gain), mesh=mesh, in_specs=P("model"), out_specs=P("model"))
    h = act(x)
    return act(h)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    g = jnp.array([1.0, 0.5, 2.0, 3.0])
    out = jax.jit(jax.vmap(layer, spmd_axis_name="data"))(x, g)
    xn, gn = np.asarray(x), np.asarray(g)[:, None]
    ref = np.tanh(np.tanh(xn * gn) * gn)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
