"""Fuzz seed 240052 (shrunk): a plain vmap (`@jax.jit` above `@jax.vmap`) over a batch resharded to `P('x', 'y')`
on an Explicit mesh, whose function reshards its result to `P('x')` (SPMD006: the plain vmap maps `'x'` away) and
applies a shard_map (`check_vma=False`) whose body closes over `m = x.mean() + 2.0`, a value the vmap batches.
JAX fails on the capture first (`For primitive mul, context mesh ... should match the aval mesh`), and the
stripped reshard `P(None)` fails the same way: the strip of the reshard's spec is unsafe while a reached body
captures a batched value (no rule reports that capture under a plain vmap); nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = jax.make_mesh((2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    y = jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(x)
    y = jax.sharding.reshard(y, P('x'))
    return y


@jax.jit
@jax.vmap
def apply(x):
    return block(x)


def ref_block(x):
    m = x.mean() + 2.0
    def ref_body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.sharding.reshard(xs, NamedSharding(mesh, P('x', 'y')))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    with jax.set_mesh(mesh):
        result = apply(xs)
    return result, reference
