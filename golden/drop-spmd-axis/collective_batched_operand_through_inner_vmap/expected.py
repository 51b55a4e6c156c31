"""The batched twin of golden/clean/collective_unbatched_operand_through_inner_vmap: the spmd vmap maps w
(in_axes (0, 0)) and the inner vmap passes it as it is (in_axes None): psum over the spmd axis 'y' mixes batch
elements, and with check_vma=False the program runs with wrong values."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b, w):
    return (b * 2.0 + 1.0) * jax.lax.psum(w, 'y')


def block(x, w):
    return jax.shard_map(body, mesh=mesh, in_specs=(P('x'), P()), out_specs=P('x'), check_vma=False)(x, w)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def ref_body(b, w):
    return (b * 2.0 + 1.0) * jax.lax.psum(w, 'y')


def ref_block(x, w):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=(P('x'), P()), out_specs=P('x'), check_vma=False)(x, w)


def ref_apply(x, w):
    return jax.vmap(ref_block, in_axes=(0, None))(x, w)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    ws0 = np.arange(8, dtype=np.float32) / 4.0 + 0.5
    ws = jnp.asarray(ws0)
    reference = np.asarray(jax.vmap(ref_apply, in_axes=(0, 0))(xs0, ws0))
    result = jax.vmap(apply, in_axes=(0, 0))(xs, ws)
    return result, reference
