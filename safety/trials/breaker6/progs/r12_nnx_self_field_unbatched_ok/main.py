import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class ColumnGate(nnx.Module):
    def __init__(self, d, rngs):
        self.gate = nnx.Param(jax.random.uniform(rngs.params(), (d,)))
        self.temperature = 2.0

    def __call__(self, x):
        t = self.temperature
        return jax.shard_map(lambda b: b * jax.nn.sigmoid(t * b), mesh=mesh,
                             in_specs=P(None, "model"), out_specs=P(None, "model"))(x) + self.gate[...]


def main():
    model = ColumnGate(8, nnx.Rngs(0))
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    out = jax.vmap(lambda v: model(v), spmd_axis_name="data")(x)
    xn = np.asarray(x)
    ref = xn / (1 + np.exp(-2.0 * xn)) + np.asarray(model.gate[...])
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
