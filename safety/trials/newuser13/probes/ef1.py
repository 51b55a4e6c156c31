import jax
import jax.numpy as jnp
import numpy as np
from functools import partial
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))

class Trainer:
    def __init__(self, mesh):
        self.mesh = mesh

    def apply(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=self.mesh, in_specs=P("data"), out_specs=P("data"))(x)

    def step(self, xs):
        return jax.vmap(self.apply, spmd_axis_name="data")(xs)

print(Trainer(MESH).step(jnp.ones((4, 8))).sum())
