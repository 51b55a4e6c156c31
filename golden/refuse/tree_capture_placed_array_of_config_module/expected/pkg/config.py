import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'))
SCALE = jax.device_put(jnp.linspace(0.5, 1.5, 8), NamedSharding(mesh, P(None)))
