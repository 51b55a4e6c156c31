import jax
import jax.numpy as jnp
import numpy as np

from pkg.axes import Axis
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name=Axis.DATA)(x)
    ref = np.asarray(x) ** 2
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
