"""Fuzz seed 240052's unshrunk form: refuse/reshard_inside_plain_vmap_capture_placed_batch with `@jax.jit` on
`block`, the function applying the shard_map. The staging function does not make the capture of `m` harmless
under the plain vmap over a batch placed on Explicit axes (`For primitive mul, context mesh ... should match the
aval mesh`, as written and after a strip of the reshard's spec): the strip is unsafe; nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = jax.make_mesh((2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@jax.jit
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
