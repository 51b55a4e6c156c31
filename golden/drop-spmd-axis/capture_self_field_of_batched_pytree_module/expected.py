"""breaker4's p06: a pytree module (`register_dataclass`, equinox style) vmapped with `spmd_axis_name='ens'`
through `apply(m: Scale, x)`, whose `__call__`'s shard_map body closes over `self.scale`: the vmap batches the
instance, so `self.scale` is a batched value and JAX fails on the closure (SPMD003). spmdfix did not count the
instance a method is called on as its `self`, and was silent."""
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


def main():
    scales = np.arange(1.0, 5.0, dtype=np.float32)
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    result = jax.vmap(apply)(Scale(scale=jnp.asarray(scales)), xs)
    return result, xs * scales[:, None]
