"""Issue 22 (left open by fuzz seed 110652's fix): an inner `jax.vmap` between the spmd vmap (`'x'`) and a
check_vma=True shard_map whose body reduces over `'y'`, an axis that is not the spmd one: `jax.lax.psum(b, 'y')`,
then `jnp.sin`, then `jax.lax.pmax(..., 'y')`. psum, pmax and pmin over a literal axis other than the spmd axis
run under the inner vmap like unary steps (measured on jax 0.10.2, eager and jit, with specs `P()` and `P('y')`:
safety/measurements/spmd007_body_collectives_constants.py). No SPMD007 (and no SPMD004: no collective over the
spmd axis)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    s = jax.lax.psum(b, 'y')
    return jax.lax.pmax(jnp.sin(s), 'y')


def block(row):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P())(row)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    per_shard = xs.reshape(8, 4, 4, 2).sum(axis=2)
    return result, np.sin(per_shard)
