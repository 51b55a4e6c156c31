import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
jax.set_mesh(mesh)

N_STEPS = 3


def diffuse(x):
    def step(i, h):
        return jax.shard_map(lambda b: 0.5 * jnp.tanh(b) + 0.1, in_specs=P("model"), out_specs=P("model"))(h)
    return jax.lax.fori_loop(0, N_STEPS, step, x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(diffuse, spmd_axis_name="model"))(x)
    ref = np.asarray(x)
    for _ in range(N_STEPS):
        ref = 0.5 * np.tanh(ref) + 0.1
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
