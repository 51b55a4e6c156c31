import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import softmax_t


def main():
    logits = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    temps = jnp.array([0.5, 1.0, 2.0, 4.0])
    out = jax.vmap(softmax_t, spmd_axis_name=DATA)(logits, temps)
    e = np.exp(np.asarray(logits) / np.asarray(temps)[:, None])
    ref = e / e.sum(axis=1, keepdims=True)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
