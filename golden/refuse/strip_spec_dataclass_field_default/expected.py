"""The specs live in a dataclass: `rows: P = P('x')`, read off an instance as `SPECS.rows` by the vmapped
shard_map and by `centre`, which subtracts each block's own mean. Stripping `'x'` edits the field's default, so
`centre` would see the whole array (safety/trials/breaker12 s23: on main the strip was safe and `centre`
returned other values)."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@dataclasses.dataclass(frozen=True)
class Specs:
    rows: P = P('x')


SPECS = Specs()


def centre(a):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=SPECS.rows, out_specs=SPECS.rows)(a)


def double(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=SPECS.rows, out_specs=SPECS.rows)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) + 1.0
    out = jax.vmap(double, spmd_axis_name='x')(xs)
    c = centre(xs[0])
    x0 = np.asarray(xs[0])
    ref_c = np.concatenate([x0[:4] - x0[:4].mean(), x0[4:] - x0[4:].mean()])
    result = jnp.concatenate([out.ravel(), c])
    reference = np.concatenate([(np.asarray(xs) * 2.0).ravel(), ref_c])
    return result, reference

