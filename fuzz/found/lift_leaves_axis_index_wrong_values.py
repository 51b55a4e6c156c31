"""fuzz seed 2032 (safe-fix:lift-captures:wrong-values, auto too): P() specs, check_vma=False, body (b + axis_index('x')) * w closing over the batched w under spmd 'x': the original raises, the safe lift makes it run with wrong values because the axis_index over the spmd axis (SPMD004) remains (issue 10, found by generated programs: a partial safe fix)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b + jax.lax.axis_index('x')) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def apply(x, w):
    return block(x, w)


def ref_block(x, w):
    def ref_body(b):
        return (b + jax.lax.axis_index('x')) * w
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def ref_apply(x, w):
    return ref_block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    ws = jnp.asarray(ws0)
    reference = np.asarray(jax.vmap(ref_apply, in_axes=(0, 0))(xs0, ws0))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws)
    return result, reference
