import jax
import jax.numpy as jnp
import numpy as np
from functools import partial
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))

class Block(nnx.Module):
    def __init__(self, mesh, rngs):
        self.mesh = mesh
        self.w = nnx.Param(jnp.ones((8,)))

    def __call__(self, x):
        f = nnx.shard_map(lambda b, w: b * w, mesh=self.mesh, in_specs=(P("data"), P()), out_specs=P("data"))
        return f(x, self.w[...])

m = Block(MESH, nnx.Rngs(0))
out = nnx.vmap(lambda m, x: m(x), in_axes=(None, 0), spmd_axis_name="data")(m, jnp.ones((4, 8)))
print(out.sum())
