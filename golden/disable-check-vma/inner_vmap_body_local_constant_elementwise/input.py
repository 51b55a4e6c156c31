"""The failing twin of golden/clean/inner_vmap_body_constant_bound_in_function: the body combines its block with a
row of a constant bound in the function applying the shard_map elementwise (`b * M[0]`, specs `P('y')`): under an
inner `jax.vmap` between the spmd vmap (`'x'`) and the check_vma=True shard_map JAX raises `Primitive mul requires
varying manual axes to match`, eager and under jit (measured on jax 0.10.2:
safety/measurements/spmd007_gather_permute_index_local_constants.py). SPMD007; check_vma=False runs and matches."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(row):
    M = np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(2, 2)
    return jax.shard_map(lambda b: b * M[0], mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=True)(row)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    M = np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(2, 2)
    return result, xs * np.tile(M[0], 4)
