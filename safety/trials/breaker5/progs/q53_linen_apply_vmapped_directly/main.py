import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def main():
    module = Block(8)
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    params = module.init(jax.random.key(0), x[0])
    out = jax.jit(jax.vmap(module.apply, in_axes=(None, 0), spmd_axis_name="data"))(params, x)
    k = np.asarray(params["params"]["Dense_0"]["kernel"])
    b = np.asarray(params["params"]["Dense_0"]["bias"])
    ref = np.maximum(np.asarray(x) @ k + b, 0)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
