"""An inner `jax.vmap` between the spmd vmap (`'x'`) and a check_vma=True shard_map whose body applies
`jax.lax.pmean(b, 'y')`: unlike psum, pmax and pmin over `'y'` (golden/clean/inner_vmap_body_psum_other_axis),
pmean divides after its psum, a binary primitive, and JAX raises `pvary is a invariant->variant collective`
(measured on jax 0.10.2, eager and jit: safety/measurements/spmd007_body_collectives_constants.py). SPMD007;
disable-check-vma (unsafe, as always) runs and matches."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(row):
    return jax.shard_map(lambda b: jax.lax.pmean(b, 'y'), mesh=mesh, in_specs=P('y'), out_specs=P(), check_vma=True)(row)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    return result, xs.reshape(8, 4, 4, 2).mean(axis=2)
