import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


class Config:
    def __init__(self, batch_axis="y", model_axis="y"):
        self.batch_axis = batch_axis
        self.model_axis = model_axis


cfg = Config(batch_axis="x")
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)


def main():
    x = jnp.arange(64.0).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name=cfg.batch_axis)(x)
    reference = x * 2.0
    return result, reference
