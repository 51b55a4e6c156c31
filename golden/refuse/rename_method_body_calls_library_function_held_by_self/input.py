"""The shard_map body is the method `self._block`, which calls `self.op(b, XP, FP)`, the instance's attribute
`op` being `jnp.interp` (set in `__init__`). The call was judged as the project's (the walk found a member `op`), so hazard H2's allowlist
judged nothing and the rename to 'y' was SAFE; the renamed program raised `pvary is a invariant->variant
collective`. A value the instance holds is no function of the project the walk reads: rename is unsafe."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
XP = np.linspace(0.0, 40.0, 5)
FP = np.linspace(0.0, 80.0, 5)


class Layer:
    def __init__(self):
        self.op = jnp.interp

    def _block(self, b):
        return self.op(b, XP, FP)

    def __call__(self, v):
        return jax.shard_map(self._block, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(Layer(), spmd_axis_name='x')(xs)
    reference = np.interp(np.asarray(xs), XP, FP)
    return result, reference
