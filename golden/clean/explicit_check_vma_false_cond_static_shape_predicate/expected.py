"""check_vma=False on a shard_map an eager spmd vmap reaches through `lax.cond` / `lax.switch` on a predicate
(index) read from static shapes, which no vmap batches: `v.shape[0] > 1`, `v.ndim == 1`, `len(v) > 1`,
`n >= 8` with `n = v.shape[-1]`, and the switch index `len(v) - 8`, the batch placed on the Explicit spmd axis.
Like a constant predicate (clean/explicit_check_vma_false_cond_constant_predicate), the conditional stages its
branches away from the eager vmap and the program runs and matches (measured on jax 0.10.2:
safety/measurements/spmd008_cond_unbatched_predicate.py). On a batched predicate (`v.sum() > 0`) it fails
(refuse/explicit_check_vma_false_eager_checkpoint). No SPMD008."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def neg(v):
    return -v


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def by_shape(v):
    return jax.lax.cond(v.shape[0] > 1, block, neg, v)


def by_ndim_and_len(v):
    return jax.lax.cond(v.ndim == 1 and len(v) > 1, block, neg, v)


def by_name(v):
    n = v.shape[-1]
    return jax.lax.cond(n >= 8, block, neg, v)


def by_switch(v):
    return jax.lax.switch(len(v) - 8, [block, neg], v)


def main():
    xs0 = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(4, 8)
    xs = jax.device_put(xs0, NamedSharding(mesh, P('x', None)))
    results = [
        jax.vmap(by_shape, spmd_axis_name='x')(xs),
        jax.vmap(by_ndim_and_len, spmd_axis_name='x')(xs),
        jax.vmap(by_name, spmd_axis_name='x')(xs),
        jax.vmap(by_switch, spmd_axis_name='x')(xs),
    ]
    return np.stack([np.asarray(r) for r in results]), np.stack([xs0 * 2.0 + 1.0] * len(results))
