import jax.numpy as jnp
import numpy as np

from pkg import config, model


def main():
    x = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    out = model.apply(x, config.MESH)
    ref = np.asarray(x) * 3.0 - 1.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
