import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# `jax.vmap(module.apply, in_axes=(None, 0))`: flax's `nn.Module.apply` calls `Block.__call__`, whose
# shard_map names the spmd axis; the walk does not follow library code calling back into the class: an SPMD910 record at it
# (breaker5 q53: JAX raised the SPMD001 error and spmdfix printed nothing).
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(h)


def main():
    module = Block(8)
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    params = module.init(jax.random.key(0), x[0])
    out = jax.jit(jax.vmap(module.apply, in_axes=(None, 0), spmd_axis_name='data'))(params, x)
    k = np.asarray(params['params']['Dense_0']['kernel'])
    b = np.asarray(params['params']['Dense_0']['bias'])
    return out, np.maximum(np.asarray(x) @ k + b, 0)
