import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def forward(v):
    h = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    # A placement over 'y' inside the vmap: unlike a jax.jit's in/out_shardings, device_put keeps running once
    # 'y' is the spmd axis (measured), so 'y' stays a free target for rename.
    return jax.device_put(h, NamedSharding(mesh, P(None, 'y'))) * 3.0


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.vmap(forward, spmd_axis_name='y')(xs)
    reference = (np.asarray(xs) * 2.0 + 1.0) * 3.0
    return result, reference
