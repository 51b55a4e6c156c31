import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    def outer(x):
        return jax.shard_map(body, in_specs=P('y'), out_specs=P('y'), axis_names={'y'})(x)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


@jax.jit
@functools.partial(jax.vmap, spmd_axis_name='y')
def apply(x):
    return block(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    def ref_outer(x):
        return jax.shard_map(ref_body, in_specs=P('y'), out_specs=P('y'), axis_names={'y'})(x)
    return jax.shard_map(ref_outer, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', None)))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = apply(xs)
    return result, reference
