import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg import config
from pkg.model import block

step = jax.jit(jax.vmap(block, spmd_axis_name=config.DATA),
               in_shardings=NamedSharding(config.MESH, P(config.DATA, None)))
