import jax.numpy as jnp
import numpy as np

from pkg.train import step


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    shift = jnp.array([0.1, 0.2, 0.3, 0.4])
    out = step(x, shift)
    ref = np.tanh(np.asarray(x) + np.asarray(shift)[:, None])
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
