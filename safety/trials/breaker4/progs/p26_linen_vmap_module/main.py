import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class Scaler(nn.Module):
    @nn.compact
    def __call__(self, x):
        s = self.param("s", nn.initializers.ones, (x.shape[-1],))
        y = x * s
        return jax.shard_map(jnp.sin, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(y)


VScaler = nn.vmap(Scaler, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=0,
                  spmd_axis_name="data")


def main():
    xs = jnp.linspace(-1, 1, 32).reshape(4, 8)
    model = VScaler()
    params = model.init(jax.random.PRNGKey(0), xs)
    out = model.apply(params, xs)
    print("RESULT:", "match" if np.allclose(out, np.sin(np.asarray(xs)), atol=1e-6) else "mismatch")


main()
