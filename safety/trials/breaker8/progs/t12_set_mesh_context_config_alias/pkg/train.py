import jax
import jax.numpy as jnp
import numpy as np

import pkg.config as C
from pkg.model import attention_like


def main():
    x = jnp.linspace(-1, 1, 8 * 4 * 8).reshape(8, 4, 8)
    with jax.set_mesh(C.MESH):
        out = jax.vmap(attention_like, spmd_axis_name=C.DATA)(x)
    e = np.exp(np.asarray(x).reshape(8, 4, 2, 4))
    ref = (e / e.sum(-1, keepdims=True)).reshape(8, 4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
