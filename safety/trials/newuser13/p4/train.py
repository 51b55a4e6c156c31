import jax
import jax.numpy as jnp
import numpy as np

import layers

MESH = jax.make_mesh((4, 2), ("dp", "tp"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def step(x):
    return layers.scale(layers.rmsnorm(x).sum(-1))


def main():
    xs = jax.random.normal(jax.random.key(0), (2, 8, 4))
    with jax.set_mesh(MESH):
        got = jax.vmap(step, spmd_axis_name="dp")(xs)
    x = np.asarray(xs)
    ref = (x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)).sum(-1) * 3.0
    print("OK" if np.allclose(got, ref, atol=1e-4) else "MISMATCH", float(np.abs(got).sum()))


if __name__ == "__main__":
    main()
