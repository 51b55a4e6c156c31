"""The shard_map body calls `OPS.run(b)`, whose `self.sum(t)` no class body defines: `Ops.__getattr__` gives it,
a function applying `lax.cond` over a traced predicate. The walk records `self.sum` as not followed, which made
rename unsafe, but hazard H2 keyed the call `Array.sum` (an allowed array method) and add-axis, whose new axis no
collective can name, stayed SAFE: the fixed program raised `pvary is a invariant->variant collective`
(breaker16 g03). A callable the walk does not follow is on no allowlist, and a class defining `__getattr__` may
give any object the walk does not resolve any method: add-axis is unsafe, naming the call."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


class Ops:
    def __getattr__(self, name):
        return _cond

    def run(self, t):
        return self.sum(t)


OPS = Ops()


def layer(v):
    return jax.shard_map(lambda b: OPS.run(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(layer)(xs)
    return result, reference
