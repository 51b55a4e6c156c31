import jax
from jax.sharding import PartitionSpec as P


class Layer:
    def __init__(self, mesh):
        self.mesh = mesh
        self.batch_axis = mesh.axis_names[0]

    def apply(self, x):
        spec = P(self.batch_axis)
        return jax.shard_map(lambda b: b + 0.125, mesh=self.mesh, in_specs=spec, out_specs=spec)(x)
