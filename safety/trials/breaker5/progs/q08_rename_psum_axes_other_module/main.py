import jax
import jax.numpy as jnp
import numpy as np

from pkg import axes
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name=axes.DATA))(x)
    ref = 2.0 * np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
