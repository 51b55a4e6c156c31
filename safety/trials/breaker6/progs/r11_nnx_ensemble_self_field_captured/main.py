import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class ScaledAct(nnx.Module):
    def __init__(self, d, rngs):
        self.scale = nnx.Param(jax.random.uniform(rngs.params(), (d,)) + 0.5)

    def __call__(self, x):
        # the per-feature scale is closed over by the per-device body
        return jax.shard_map(lambda b: jnp.tanh(b) * self.scale[...], mesh=mesh,
                             in_specs=P(), out_specs=P())(x)


@nnx.vmap(in_axes=0, out_axes=0)
def make_ensemble(key):
    return ScaledAct(8, nnx.Rngs(key))


@nnx.vmap(in_axes=(0, 0), spmd_axis_name="data")
def forward(model, x):
    return model(x)


def main():
    models = make_ensemble(jax.random.split(jax.random.key(0), 4))
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    out = forward(models, x)
    scale = np.asarray(models.scale[...])
    ref = np.tanh(np.asarray(x)) * scale[:, None, :]
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
