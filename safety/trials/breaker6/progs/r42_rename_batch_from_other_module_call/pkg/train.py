import jax.numpy as jnp
import numpy as np

from pkg import model


def main():
    x = jnp.linspace(-1, 1, 6 * 8).reshape(6, 8)   # 6 examples
    out = model.forward(x)
    ref = np.tanh(np.asarray(x)) * 2.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
