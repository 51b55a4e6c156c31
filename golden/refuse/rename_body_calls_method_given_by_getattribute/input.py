"""The shard_map body calls `OPS.scale(b)`: the class body of `Ops` defines `scale` as `t * 2.0`, but
`Ops.__getattribute__` gives another function for it, which applies `lax.cond` over a traced predicate. The call
walk read the `def scale` and the rename to 'y' was SAFE; the renamed program raised `pvary is a
invariant->variant collective` (breaker16 g01). A read through a class of the project defining
`__getattribute__` is not followed (an SPMD910 record), and a callable the walk does not follow is on no
hazard-H2 allowlist: rename is unsafe, naming the call."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


class Ops:
    def __getattribute__(self, name):
        if name == 'scale':
            return _cond
        return object.__getattribute__(self, name)

    def scale(self, t):
        return t * 2.0


OPS = Ops()


def layer(v):
    return jax.shard_map(lambda b: OPS.scale(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(layer)(xs)
    return result, reference
