"""The pytree module of breaker4's p06 with its factor a static field (`field(metadata=dict(static=True))`): the
vmap over the instance batches only its leaves, and the shard_map body reading `self.factor` closes over a
Python float, not a batched value: runs and matches. spmdfix counts `self` as batched only for a class none of
whose fields may be static; here it reports nothing."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("ens", "model"))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Scale:
    bias: jax.Array
    factor: float = dataclasses.field(default=2.0, metadata=dict(static=True))

    def __call__(self, x):
        return jax.shard_map(lambda b: b * self.factor, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def apply(m: Scale, x):
    return m(x) + m.bias


def main():
    biases = np.arange(1.0, 5.0, dtype=np.float32)
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    result = jax.vmap(apply, spmd_axis_name="ens")(Scale(bias=jnp.asarray(biases)), xs)
    return result, xs * 2.0 + biases[:, None]
