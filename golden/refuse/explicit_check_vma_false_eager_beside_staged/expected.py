"""check_vma=False on a shard_map an eager spmd vmap reaches both through a staging function (`jax.lax.map`,
`jax.jit`) and directly, the batch placed on the Explicit spmd axis: the staged way runs
(clean/explicit_check_vma_false_staged_loops), the direct call raises `out_specs argument must refer to an axis
marked as manual`. SPMD008 whichever way comes first in the source; no fix."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def mapped_then_direct(x):
    a = jax.lax.map(block, x)
    return a + block(x)


def jitted_then_direct(x):
    a = jax.jit(block)(x)
    return a + block(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None, None)))
    a = jax.vmap(mapped_then_direct, spmd_axis_name='x')(xs)
    b = jax.vmap(jitted_then_direct, spmd_axis_name='x')(xs)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    return result, np.concatenate([2.0 * (xs0 * 2.0 + 1.0)] * 2)
