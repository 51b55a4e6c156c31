import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)

ROW_SPECS = (P("model"),)


def normalize(x, scale):
    return jax.shard_map(lambda b: b * scale, mesh=mesh, in_specs=ROW_SPECS, out_specs=P("model"))(x)


def activate(x):
    return jax.shard_map(jnp.tanh, mesh=mesh, in_specs=ROW_SPECS, out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    s = jnp.array([1.0, 0.5, 2.0, 3.0])
    out = jax.jit(jax.vmap(normalize, spmd_axis_name="data"))(x, s)
    a = activate(x[0])
    ok = np.allclose(out, np.asarray(x) * np.asarray(s)[:, None]) and np.allclose(a, np.tanh(np.asarray(x[0])))
    print("RESULT:", "match" if ok else "mismatch")


main()
