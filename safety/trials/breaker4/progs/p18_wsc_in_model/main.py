import jax.numpy as jnp, numpy as np
from lm.train import forward
tokens = jnp.arange(4 * 8).reshape(4, 8) % 10
table = jnp.linspace(-1, 1, 10 * 16).reshape(10, 16)
out = forward(tokens, table)
h = np.asarray(table)[np.asarray(tokens)]
ref = h / np.sqrt((h ** 2).mean(-1, keepdims=True) + 1e-6)
print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
