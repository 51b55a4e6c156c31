import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P
from ens.mesh import EMESH
from ens.specs import rows




def double(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=EMESH, in_specs=rows(), out_specs=rows())(x)


def main():
    with jax.set_mesh(EMESH):
        xs = jax.device_put(jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4),
                            jax.sharding.NamedSharding(EMESH, P('data')))
        out = jax.vmap(double)(xs)
    return out, np.asarray(xs) * 2.0
