"""A plain jax.vmap over an input placed under `jax.set_mesh` at a later dimension only (`P(None, 'x')`: the batch
dimension on no axis), a shard_map body closing over `w = jnp.linspace(...)`, an array made eagerly inside the same
`with jax.set_mesh(mesh):` block. JAX commits an array made there to the Explicit context mesh
(`NamedSharding(mesh, P(None,))`) and refuses its capture as that of a `jax.device_put` array: `Closing over inputs
to shard_map where the input is sharded on Explicit axes`, eager and under jit, check_vma True and False
(safety/measurements/plain_vmap_inner_capture_staged.py, part 2); made before the with block it runs (clean
plain_vmap_capture_array_made_before_set_mesh). SPMD003 (was silent); lifting it is not measured: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def main():
    x0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 20.0) / 16.0
    with jax.set_mesh(mesh):
        w = jnp.linspace(0.5, 2.0, 8)
        xs = jax.sharding.reshard(jnp.asarray(x0), P(None, 'x'))
        result = jax.vmap(lambda x: jax.shard_map(lambda b: b + w.mean(), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x))(xs)
    return result, x0 + np.linspace(0.5, 2.0, 8).mean()
