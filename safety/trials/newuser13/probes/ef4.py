import jax
import jax.numpy as jnp
import numpy as np
from functools import partial
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
import dataclasses

@dataclasses.dataclass
class Cfg:
    axis: str

def layer(x, cfg):
    return jax.shard_map(lambda b: b * 3.0, mesh=MESH, in_specs=P(cfg.axis), out_specs=P(cfg.axis))(x)

cfg = Cfg(axis="data")
print(jax.vmap(partial(layer, cfg=cfg), spmd_axis_name="data")(jnp.ones((4, 8))).sum())
