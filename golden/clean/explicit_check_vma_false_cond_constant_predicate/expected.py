"""check_vma=False on a shard_map an eager spmd vmap reaches through `lax.cond` / `lax.switch` on a predicate
(index) the vmap does not batch, a constant (`K > 0` with `K` a module constant, `True`, the index `0`), the
batch placed on the Explicit spmd axis: like `jax.lax.map` and `lax.scan`
(clean/explicit_check_vma_false_staged_loops), the conditional stages its branches away from the eager vmap, and
the program runs and matches (measured on jax 0.10.2: safety/measurements/spmd008_cond_unbatched_predicate.py,
explicit_check_vma_false_staged.py). On a batched predicate it fails
(refuse/explicit_check_vma_false_eager_checkpoint). No SPMD008."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
K = 3


def neg(v):
    return -v


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def by_cond(v):
    return jax.lax.cond(K > 0, block, neg, v)


def by_switch(v):
    return jax.lax.switch(0, [block, neg], v)


def by_cond_lambda(v):
    return jax.lax.cond(True, lambda u: block(u), neg, v)


def main():
    xs0 = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(4, 8)
    xs = jax.device_put(xs0, NamedSharding(mesh, P('x', None)))
    results = [
        jax.vmap(by_cond, spmd_axis_name='x')(xs),
        jax.vmap(by_switch, spmd_axis_name='x')(xs),
        jax.vmap(by_cond_lambda, spmd_axis_name='x')(xs),
        jax.vmap(by_cond)(xs),
    ]
    return np.stack([np.asarray(r) for r in results]), np.stack([xs0 * 2.0 + 1.0] * len(results))
