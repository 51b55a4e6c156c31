"""The shard_map body calls `self.fn(b, XP, FP)`, where `fn` is a property whose getter returns `jnp.interp`
(which batches on its own under the spmd vmap). The call walk read the getter as the function called, found no
call in it, and the rename to 'y' was SAFE; the renamed program raised `pvary is a invariant->variant
collective` (breaker16 p01). Calling a property calls what its getter returns, which is not followed (an
SPMD910 record), and a callable the walk does not follow is on no hazard-H2 allowlist: rename is unsafe."""
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
XP = jnp.linspace(0.0, 8.0, 8)
FP = jnp.linspace(0.0, 1.0, 8)


class Layer:
    @property
    def fn(self):
        return jnp.interp

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b, XP, FP), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(Layer(), spmd_axis_name='x')(xs)
    reference = jax.vmap(Layer())(xs)
    return result, reference
