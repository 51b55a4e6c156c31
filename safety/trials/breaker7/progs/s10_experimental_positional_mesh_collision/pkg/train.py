import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import gelu_rows


def main():
    x = jnp.linspace(-2, 2, 4 * 4 * 8).reshape(4, 4, 8)
    out = jax.jit(jax.vmap(gelu_rows, spmd_axis_name="data"))(x)
    ref = jax.nn.gelu(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
