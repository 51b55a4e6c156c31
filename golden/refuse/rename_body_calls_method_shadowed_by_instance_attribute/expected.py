"""The shard_map body calls `self.norm(b)`: `Layer` defines `def norm` (`t * 2.0`) but `__init__` assigns
`self.norm = jnp.vectorize(...)`, the instance's own attribute, which the read gives (it shadows the method) and
which vmaps on its own. The call walk took the method, the rename to 'y' was SAFE and the renamed program raised
`pvary is a invariant->variant collective` (breaker16 s01). A method whose name the class also assigns a value
is not followed (an SPMD910 record), and a callable the walk does not follow is on no hazard-H2 allowlist."""
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Layer:
    def __init__(self):
        self.norm = jnp.vectorize(lambda t: jnp.where(t > 1.0, t * 2.0, t))

    def norm(self, t):
        return t * 2.0

    def __call__(self, v):
        return jax.shard_map(lambda b: self.norm(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(Layer(), spmd_axis_name='x')(xs)
    reference = jax.vmap(Layer())(xs)
    return result, reference
