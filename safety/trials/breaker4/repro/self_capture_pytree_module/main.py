import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("ens", "model"))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Scale:
    scale: jax.Array

    def __call__(self, x):
        return jax.shard_map(lambda b: b * self.scale, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def apply(m: Scale, x):
    return m(x)


jax.vmap(apply, spmd_axis_name="ens")(Scale(scale=jnp.arange(1.0, 5.0)), jnp.ones((4, 8)))
