import jax
import jax.numpy as jnp
import numpy as np

from pkg import config as C
from pkg.model import loss


def main():
    xs = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    w = jnp.linspace(-0.5, 0.5, 8 * 8).reshape(8, 8)
    gw = jax.vmap(jax.grad(loss, argnums=1), in_axes=(0, None), spmd_axis_name=C.DATA)(xs, w)
    ref = jax.vmap(jax.grad(lambda x, w: jnp.sum(jnp.tanh(x @ w) ** 2), argnums=1), in_axes=(0, None))(xs, w)
    print("RESULT:", "match" if np.allclose(gw, ref, atol=1e-4) else "mismatch")
