"""A partial-manual shard_map (`axis_names={'x'}`) under a vmap over 'y' reached through `lax.cond` on a predicate
the vmap does not batch (`True`): unlike SPMD008's eager `check_vma=False` case, the conditional does not cure
hazard H4, 'y' is still not manual there and JAX raises (measured on jax 0.10.2, eager and jit, check_vma True and
False, literal, constant and batched predicates, `lax.switch` too: safety/measurements/spmd008_cond_unbatched_predicate.py).
SPMD008; add-axis appends the new axis to `axis_names`."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x', 'batch'})(v)


def neg(v):
    return -v


def branch(v):
    return jax.lax.cond(True, layer, neg, v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(branch, spmd_axis_name='batch'))(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
