import jax, jax.numpy as jnp, numpy as np
from nn.layers import step
from nn.infer import infer
x2 = jnp.linspace(-1, 1, 8 * 8).reshape(8, 8)
ok = np.allclose(infer(x2), np.expm1(np.asarray(x2)), atol=1e-5)
print("infer ok", ok)
xs = jnp.linspace(-1, 1, 4 * 8 * 8).reshape(4, 8, 8)
out = jax.jit(jax.vmap(step, spmd_axis_name="data"))(xs)
ok &= np.allclose(out, np.expm1(np.asarray(xs)), atol=1e-5)
print("RESULT:", "match" if ok else "mismatch")
