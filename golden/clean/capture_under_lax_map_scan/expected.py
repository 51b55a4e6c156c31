"""Fuzz seed 70093 (shrunk): a shard_map body closing over `m = x.mean() + 2.0`, computed from the batch, in a
function the spmd vmap reaches through `jax.lax.map(block, x, batch_size=None)` (a scan). The scan traces the body
into a jaxpr before the vmap batches it, so the capture is an operand there: it runs and matches on this Auto mesh
(safety/measurements/capture_under_staging_hof.py: also under jit, checkpoint, lax.scan, fori_loop, cond, switch,
while_loop, check_vma True and False). No SPMD003."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


@functools.partial(jax.vmap, spmd_axis_name='y')
def apply(x):
    return jax.lax.map(block, x, batch_size=None)


def ref_block(x):
    m = x.mean() + 2.0
    def ref_body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def ref_apply(x):
    return jax.vmap(ref_block, in_axes=0)(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = apply(xs)
    return result, reference
