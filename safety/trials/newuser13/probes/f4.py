from common import *
import dataclasses

@dataclasses.dataclass
class Cfg:
    axis: str

def layer(x, cfg):
    return jax.shard_map(lambda b: b * 3.0, mesh=MESH, in_specs=P(cfg.axis), out_specs=P(cfg.axis))(x)

cfg = Cfg(axis="data")
print(jax.vmap(partial(layer, cfg=cfg), spmd_axis_name="data")(jnp.ones((4, 8))).sum())
