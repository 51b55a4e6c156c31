import jax
import jax.numpy as jnp
import numpy as np

from pkg.eval import EVAL_BATCH
from pkg.model import forward


def main():
    n = EVAL_BATCH  # 8
    x = jnp.linspace(-1, 1, n * 8).reshape(n, 8)
    scales = jnp.array([0.5, 1.5, 2.0])
    out = jax.vmap(forward, in_axes=(0, None), spmd_axis_name="data")(x, scales)
    h = np.asarray(x)
    for s in [0.5, 1.5, 2.0]:
        h = np.tanh(h * s)
    print("RESULT:", "match" if n == 8 and np.allclose(out, h, atol=1e-5) else "mismatch")
