"""The shard_map body calls `self.fn(b)`, where the class attribute `fn = property(lambda self: _red)` gives a
function taking `psum` over 'y'. The call walk did not follow what the property gives, the rename to 'y' was SAFE
and the renamed program's values changed (the psum then ran over the spmd axis: breaker16 r01). Calling a
property calls what its getter returns, which is not followed (an SPMD910 record): rename is unsafe."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _red(t):
    return t + lax.psum(t, 'y')


class Layer:
    fn = property(lambda self: _red)

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(Layer(), spmd_axis_name='x')(xs)
    reference = jax.vmap(Layer())(xs)
    return result, reference
