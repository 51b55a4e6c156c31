"""The shard_map body calls `Ops.sum(b)`, where the class attribute `sum` holds
`staticmethod(jnp.vectorize(...))`, which vmaps on its own. Hazard H2 counted only `def`s of the module's classes
as methods that shadow an array's, and keyed the call `Array.sum` (an allowed array method): the rename to 'y'
was SAFE and the renamed program raised `pvary is a invariant->variant collective` (breaker16 p04). A name a
class body binds to any value may be what `obj.sum(...)` runs: rename is unsafe, naming the call."""
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Ops:
    sum = staticmethod(jnp.vectorize(lambda t: jnp.where(t > 1.0, t * 2.0, t)))


def layer(v):
    return jax.shard_map(lambda b: Ops.sum(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(layer)(xs)
    return result, reference
