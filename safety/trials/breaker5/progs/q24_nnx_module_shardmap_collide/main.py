import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


class GatedMLP(nnx.Module):
    def __init__(self, d, rngs):
        self.proj = nnx.Linear(d, d, rngs=rngs)

    def __call__(self, x):
        h = self.proj(x)
        return jax.shard_map(lambda b: b * jax.nn.sigmoid(b), mesh=mesh,
                             in_specs=P("data"), out_specs=P("data"))(h)


def main():
    model = GatedMLP(8, nnx.Rngs(0))
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(lambda v: model(v), spmd_axis_name="data"))(x)
    h = np.asarray(x) @ np.asarray(model.proj.kernel[...]) + np.asarray(model.proj.bias[...])
    ref = h / (1 + np.exp(-h)) 
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
