import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import mesh
from pkg.model import block


def describe(m):
    return ", ".join(f"{name}={size}" for name, size in dict(m.shape).items())


def main():
    layout = describe(mesh)
    leading = next(iter(dict(mesh.shape).values()))
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x) / leading
    ref = np.tanh(np.asarray(x)) * 2.0 / 2
    print("layout:", layout)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
