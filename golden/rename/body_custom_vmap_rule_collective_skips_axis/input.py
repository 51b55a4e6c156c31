"""The shard_map body calls `f(b)`, a `jax.custom_batching.custom_vmap` function whose batching rule takes `psum`
over 'y'. Under the spmd vmap the rule runs in place of `f`'s body; the call walk read only the body, picked 'y'
for the rename (SAFE) and the renamed program's values changed (the psum then ran over the spmd axis: breaker16
s03). The rules a module registers with `@f.def_vmap` are walked as traced code: the rename skips 'y' and takes
'z', whose program matches the reference."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)


@jax.custom_batching.custom_vmap
def f(t):
    return t * 2.0


@f.def_vmap
def f_rule(axis_size, in_batched, t):
    return t * 2.0 + lax.psum(t, 'y'), in_batched[0]


def layer(v):
    return jax.shard_map(lambda b: f(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(layer)(xs)
    return result, reference
