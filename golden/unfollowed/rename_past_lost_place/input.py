import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

# The head is looked up at run time (`HEADS[kind]`, an SPMD910 record); it psums over 'fsdp'. 'fsdp' looks
# free, but rename to it would put the batch on the psum's axis (breaker5 q54: a pvary error after a SAFE
# rename): rename is unsafe while a place on the way is lost; drop-spmd-axis is applied.
mesh = jax.make_mesh((2, 2, 2), ('data', 'fsdp', 'model'), axis_types=(AxisType.Auto,) * 3)
print_axes = len(mesh.axis_names)


def allreduce_head(h):
    return jax.shard_map(lambda b: jax.lax.psum(b, 'fsdp'), mesh=mesh, in_specs=P('model'), out_specs=P('model'))(h)


HEADS = {'allreduce': allreduce_head}


def forward(x, kind='allreduce'):
    h = jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)
    return HEADS[kind](h)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    blocks = np.asarray(x).reshape(4, 2, 4)
    ref = 2.0 * (blocks - blocks.mean(-1, keepdims=True)).reshape(4, 8)
    return jax.jit(jax.vmap(forward, spmd_axis_name='data'))(x), ref
