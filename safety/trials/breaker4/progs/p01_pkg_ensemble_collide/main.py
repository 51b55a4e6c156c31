import jax, jax.numpy as jnp, numpy as np
from ens.train import ensemble_losses
k = jax.random.PRNGKey(0)
params = {"w1": jax.random.normal(k, (16, 16)) * 0.1, "w2": jax.random.normal(jax.random.PRNGKey(1), (16, 16)) * 0.1}
xs = jax.random.normal(jax.random.PRNGKey(2), (4, 8, 16))
out = ensemble_losses(params, xs)
ref = np.array([np.tanh(np.tanh(np.asarray(x) @ params["w1"]) @ params["w2"]).sum() for x in xs])
print("RESULT:", "match" if np.allclose(out, ref, atol=1e-4) else f"mismatch {out} {ref}")
