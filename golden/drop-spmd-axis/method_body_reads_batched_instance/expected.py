"""An ensemble of layers vmapped over their parameters: `forward(layer, x)` maps the stacked `layer` too, so
the shard_map body, the bound method `self._block`, closes over `self.scale`, a value the vmap batches: SPMD003
(JAX fails with a ManualAxisType assertion; main read no body and was silent). lift-captures does not edit a
read through `self`; dropping spmd_axis_name cures it on this Auto mesh."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Scale:
    scale: jax.Array

    def _block(self, v):
        return v * self.scale

    def __call__(self, x):
        return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def forward(layer: Scale, x):
    return layer(x)


def main():
    layers = Scale(jnp.arange(1.0, 5.0, dtype=jnp.float32).reshape(4, 1))
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(forward)(layers, xs)
    reference = np.asarray(xs) * np.arange(1.0, 5.0).reshape(4, 1)
    return result, reference
