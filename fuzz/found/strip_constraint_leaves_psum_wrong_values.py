"""fuzz (safe-fix:strip:wrong-values): with_sharding_constraint(x, NamedSharding(mesh, P('x'))) before a shard_map with P() specs whose body is b + psum(b, 'x'), check_vma=False, spmd 'x': the safe strip of the constraint makes the program run with wrong values (issue 10, found by generated programs: a partial safe fix)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b + jax.lax.psum(b, 'x')


def block(x):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P('x')))
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def apply(x):
    return block(x)


def ref_body(b):
    return b + jax.lax.psum(b, 'x')


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, reference
