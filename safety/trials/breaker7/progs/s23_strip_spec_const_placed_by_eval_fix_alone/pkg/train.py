import jax
import jax.numpy as jnp
import numpy as np

from pkg.eval import evaluate
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    ev = evaluate(jnp.ones((4, 8)))
    ok = np.allclose(out, np.asarray(x) - 0.5, atol=1e-5) and np.allclose(ev, 8.0)
    print("RESULT:", "match" if ok else "mismatch")
