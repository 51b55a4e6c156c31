import jax, jax.numpy as jnp, numpy as np
from kern.ops import softplus
xs = jnp.linspace(-1, 1, 32).reshape(4, 8)
out = jax.vmap(softplus, spmd_axis_name="data")(xs)
print("RESULT:", "match" if np.allclose(out, np.logaddexp(np.asarray(xs), 0), atol=1e-6) else "mismatch")
