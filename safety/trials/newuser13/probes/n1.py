import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class Block(nnx.Module):
    act = staticmethod(jax.nn.relu)

    def __init__(self, rngs):
        self.ln = nnx.LayerNorm(8, rngs=rngs)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)


model = Block(nnx.Rngs(0))


def f(x):
    return layer(Block.act(model.ln(x)))


print(jax.vmap(f, spmd_axis_name="data")(jnp.ones((4, 8))).sum())
