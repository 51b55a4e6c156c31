import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import apply


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    p = {"scale": jnp.array([1.0, 2.0, 3.0, 4.0]), "bias": jnp.float32(0.5)}
    out = jax.vmap(apply, in_axes=({"scale": 0, "bias": None}, 0), spmd_axis_name="data")(p, x)
    return out, np.asarray(x) * np.array([1.0, 2.0, 3.0, 4.0])[:, None] + 0.5
