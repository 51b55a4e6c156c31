import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import forward


def main():
    x = jnp.linspace(-2, 2, 4 * 2 * 4 * 8).reshape(4, 2, 4, 8)
    out = forward(x)
    xn = np.asarray(x)
    ref = xn / (1 + np.exp(-xn))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
