import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


class Scaler:
    def __init__(self, mesh, factor):
        self.mesh = mesh
        self.factor = factor

    def _body(self, b):
        return b * self.factor

    def __call__(self, x):
        return jax.shard_map(self._body, mesh=self.mesh, in_specs=P("data"), out_specs=P("data"))(x)
