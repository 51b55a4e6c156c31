import jax, jax.numpy as jnp, numpy as np
from kern.ops import softplus, square
xs = jnp.linspace(-1, 1, 32).reshape(4, 8)
res = []
for fn, ref in ((softplus, np.logaddexp(np.asarray(xs), 0)), (square, np.asarray(xs) ** 2)):
    try:
        out = jax.vmap(fn, spmd_axis_name="data")(xs)
        res.append("match" if np.allclose(out, ref, atol=1e-6) else "mismatch")
    except Exception as e:
        res.append(f"{type(e).__name__}: {str(e).splitlines()[0][:120]}")
print("RESULT:", res)
