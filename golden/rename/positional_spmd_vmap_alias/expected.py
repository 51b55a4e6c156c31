import jax
import jax.numpy as jnp
import numpy as np
from jax import vmap as vm
from jax.sharding import AxisType

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)


def square(v):
    return v * v


def apply(x):
    return jax.shard_map(square, mesh=mesh, in_specs=jax.P('y', 'x'), out_specs=jax.P('y', 'x'))(x)


def main():
    x = jnp.arange(8 * 4 * 4, dtype=jnp.float32).reshape(8, 4, 4)
    result = vm(apply, 0, 0, None, None, 'z')(x)
    reference = np.asarray(x) ** 2
    return result, reference
