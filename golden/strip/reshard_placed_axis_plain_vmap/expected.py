"""Fuzz seed 200100 (shrunk): a plain vmap over a batch placed on Explicit 'x' reaches a shard_map whose specs name
'x' (SPMD006) and a reshard naming 'x' (SPMD006, DuplicateSpecError). Both strips are safe and applied together;
the strip of the shard_map alone had left the reshard raising while `spmdfix check` called the output clean."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = jax.make_mesh((2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    y = jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)
    y = jax.sharding.reshard(y, P(None))
    return y


def apply(x):
    return block(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(xs, P('x', None))
        result = jax.vmap(apply)(xs)
    return result, reference
