"""fuzz seed 1077 (clean:SPMD007, false positive): a body jax.vmap(lambda r: jnp.cumsum(r, axis=-1)) under spmd_axis_name='y' with check_vma=True runs and matches; SPMD007 is reported (issue 10, false positives: SPMD007 on an inner vmap whose body has no binary primitive)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return jax.vmap(lambda r: jnp.cumsum(r, axis=-1))(b)


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x):
    return block(x)


def ref_body(b):
    return jax.vmap(lambda r: jnp.cumsum(r, axis=-1))(b)


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name='y')(xs)
    return result, reference
