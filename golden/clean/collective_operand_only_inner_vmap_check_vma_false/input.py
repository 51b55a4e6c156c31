"""Issue 22: a `psum(w, 'y')` over the spmd axis in a `check_vma=False` shard_map body, whose operand `w` only
an inner vmap maps: the spmd vmap passes `w` unbatched (`in_axes=(0, None)`), the inner
`jax.vmap(block, in_axes=(0, 0))` maps it over its own batch. Measured with jax 0.10.2
(safety/measurements/spmd004_operand_through_inner_vmap.py): it runs and matches the plain vmap, eager and under
jit, so no SPMD004. With `check_vma=True` the same program raises `pvary is a invariant->variant collective`
(SPMD004 and SPMD007 report it)."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b, w):
    return (b * 2.0 + 1.0) * jax.lax.psum(w, 'y')


def block(x, w):
    return jax.shard_map(body, mesh=mesh, in_specs=(P('x'), P()), out_specs=P('x'), check_vma=False)(x, w)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, 0))(x, w)


def run(xs, w):
    return jax.vmap(apply, in_axes=(0, None), spmd_axis_name='y')(xs, w)


def main():
    xs = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    w = np.arange(8, dtype=np.float32) / 8.0 + 0.25
    return run(xs, w), jax.vmap(apply, in_axes=(0, None))(xs, w)
