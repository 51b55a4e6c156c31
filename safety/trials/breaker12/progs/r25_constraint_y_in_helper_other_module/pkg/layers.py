import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def constrain(h, mesh):
    return jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P('y')))
