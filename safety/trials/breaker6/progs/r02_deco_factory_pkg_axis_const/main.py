import jax
import jax.numpy as jnp
import numpy as np

from pkg.layers import layer


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(layer, spmd_axis_name="data")(x)
    ref = np.tanh(np.asarray(x) * 2.0 + 1.0)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
