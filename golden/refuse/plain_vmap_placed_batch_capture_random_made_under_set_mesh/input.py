"""A plain jax.vmap over a batch placed on Explicit 'x' under `jax.set_mesh` (`reshard(xs, P('x', 'y'))`), a
shard_map over 'y' whose body closes over `noise = jax.random.normal(key, (8,))` made inside the same
`with jax.set_mesh(mesh):` block. JAX commits it to the context mesh and fails on its capture as on a
`jax.device_put` array's: `For primitive reduce_sum, context mesh ... should match the aval mesh` (eager with
check_vma=False: SPMD008's `out_specs ... manual` first; safety/measurements/plain_vmap_inner_capture_staged.py,
part 2). SPMD003 (was silent); lifting it is not measured: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def main():
    x0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 20.0) / 16.0
    reference_noise = np.asarray(jax.random.normal(jax.random.key(0), (8,)))
    with jax.set_mesh(mesh):
        noise = jax.random.normal(jax.random.key(0), (8,))
        xs = jax.sharding.reshard(jnp.asarray(x0), P('x', 'y'))
        result = jax.vmap(lambda x: jax.shard_map(lambda b: b + noise.mean(), mesh=mesh, in_specs=P('y'),
                                                  out_specs=P('y'))(x))(xs)
    return result, x0 + reference_noise.mean()
