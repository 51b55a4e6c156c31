import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def layer(h, w):
    out = jax.shard_map(lambda a, b: jnp.tanh(a * b), mesh=mesh,
                        in_specs=(P("data"), P("data")), out_specs=P("data"))(h, w)
    return out, None


def stack(ws, x):
    h, _ = jax.lax.scan(layer, x, ws)
    return h


def main():
    ws = jnp.linspace(0.1, 1.0, 3 * 8).reshape(3, 8)
    xs = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(stack, in_axes=(None, 0), spmd_axis_name="data"))(ws, xs)
    ref = np.asarray(xs)
    for w in np.asarray(ws):
        ref = np.tanh(ref * w)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
