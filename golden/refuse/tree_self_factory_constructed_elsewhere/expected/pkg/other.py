import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from pkg.m import Trainer

mesh2 = Mesh(np.array(jax.devices()), ('y',))


def step2(v):
    return jax.shard_map(lambda b: b * 3.0, mesh=mesh2, in_specs=P(), out_specs=P())(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(8, 4)
    return Trainer('y').vec(step2)(x)
