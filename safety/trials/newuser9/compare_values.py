"""Compare the values of the fixed flaxtrain with a reference computed without any sharding.

Run from the fixed project's root: `PYTHONPATH=src python compare_values.py` (8 virtual CPU devices, set here).
The reference rebuilds each part's parameters the same way (same keys) and computes the MLP in plain jax.numpy:
relu(x @ w_in) @ w_out per ensemble member / per example, then the loss.
"""
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from flax import nnx  # noqa: E402

from flaxtrain import train  # noqa: E402
from flaxtrain.config import CFG, MESH  # noqa: E402
from flaxtrain.model import EnsembleMlp, NnxMlp  # noqa: E402


def mlp(x, w_in, w_out):
    return jax.nn.relu(x @ w_in) @ w_out


def reference_linen_ensemble():
    x, _ = train.batch()
    model = EnsembleMlp(CFG.d_model, CFG.d_ff)
    variables = model.init(jax.random.key(0), x[0])
    p = jax.tree.map(lambda v: v.unbox() if hasattr(v, "unbox") else v, variables["params"],
                     is_leaf=lambda v: hasattr(v, "unbox"))
    return jnp.stack([mlp(x[0], p["w_in"][i], p["w_out"][i]) for i in range(CFG.n_ensemble)])


def reference_nnx_per_example():
    x, y = train.batch()
    with jax.set_mesh(MESH):
        model = NnxMlp(CFG.d_model, CFG.d_ff, rngs=nnx.Rngs(0))
    out = []
    for i in range(CFG.batch_size):
        h = mlp(x[i], model.w_in[...], model.w_out[...])
        h = h - jnp.mean(h, axis=-1, keepdims=True)
        out.append(jnp.mean((h - y[i]) ** 2))
    return jnp.stack(out)


def main():
    got = train.main([])
    for name, ref in (("linen_ensemble", reference_linen_ensemble), ("nnx_per_example", reference_nnx_per_example)):
        if name not in got:
            print(f"{name}: no value (raised)")
            continue
        r = np.asarray(ref())
        same = got[name].shape == r.shape and np.allclose(got[name], r, atol=1e-5)
        print(f"{name}: {'matches reference' if same else 'WRONG'} (max abs diff {np.abs(got[name] - r).max():.2e})")


if __name__ == "__main__":
    main()
