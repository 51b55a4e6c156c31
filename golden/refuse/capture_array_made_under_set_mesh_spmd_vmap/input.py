"""A vmap with `spmd_axis_name='x'` over a batch placed on Explicit 'x' under `jax.set_mesh` (`reshard(xs, P('x',
'y'))`), a shard_map over 'y' whose body closes over `scale = jnp.ones(...) * 1.5`, made inside the same `with
jax.set_mesh(mesh):` block. JAX commits it to the context mesh and fails on its capture as on a `jax.device_put`
array's: `For primitive reduce_sum, context mesh ... should match the aval mesh` (eager with check_vma=False:
SPMD008's `out_specs ... manual` first; safety/measurements/plain_vmap_inner_capture_staged.py, part 2, `spmd vmap
'x', batch on 'x'`). SPMD003 (was silent); lifting it is not measured: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def main():
    x0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 20.0) / 16.0
    with jax.set_mesh(mesh):
        scale = jnp.ones((8,), jnp.float32) * 1.5
        xs = jax.sharding.reshard(jnp.asarray(x0), P('x', 'y'))
        result = jax.vmap(lambda x: jax.shard_map(lambda b: b + scale.mean(), mesh=mesh, in_specs=P('y'),
                                                  out_specs=P('y'))(x), spmd_axis_name='x')(xs)
    return result, x0 + 1.5
