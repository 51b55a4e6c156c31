import jax
import jax.numpy as jnp
import numpy as np

from pkg.eval import activate
from pkg.layers import scale_rows


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    s = jnp.array([1.0, 0.5, 2.0, 3.0])
    out = jax.jit(jax.vmap(scale_rows, spmd_axis_name="data"))(x, s)
    a = activate(x[0])
    ok = np.allclose(out, np.asarray(x) * np.asarray(s)[:, None]) and np.allclose(a, np.tanh(np.asarray(x[0])))
    print("RESULT:", "match" if ok else "mismatch")


main()
