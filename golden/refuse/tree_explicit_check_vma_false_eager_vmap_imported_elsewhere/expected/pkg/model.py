"""check_vma=False on a shard_map that a vmap with spmd_axis_name (`batched`, bound at module level) reaches
eagerly, with the batch placed on the Explicit spmd axis: JAX does not make that axis manual there (SPMD008;
safety/measurements/explicit_check_vma_false_eager.py). Another module of the project imports `batched`
(pkg/serve.py), so its calls are not all followed: SPMD008 asked every call to place the batch and was silent.
The eager call followed fails whatever the other module passes: SPMD008."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(x)


batched = jax.vmap(block, spmd_axis_name='x')


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    result = batched(xs)
    return result, xs0 * 2.0 + 1.0
