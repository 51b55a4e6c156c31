import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@dataclasses.dataclass(frozen=True)
class Shift:
    """Adds a shift to the rows, split over `axis`; built positionally (`Shift(0.5)` sets `shift` only)."""

    shift: float = 1.0
    axis: str = 'x'

    def __call__(self, v):
        return jax.shard_map(lambda b: b + self.shift, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(v)


def step(v):
    return Shift(0.5)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name='x')(xs)
    return result, np.asarray(xs) + 0.5
