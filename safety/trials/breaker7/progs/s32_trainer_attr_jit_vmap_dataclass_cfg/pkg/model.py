import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.step = jax.jit(jax.vmap(self._block, spmd_axis_name=cfg.data_axis))

    def _block(self, x):
        return jax.shard_map(jnp.sin, mesh=self.cfg.mesh, in_specs=P(self.cfg.data_axis),
                             out_specs=P(self.cfg.data_axis))(x)
