import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1, 2, 4), ('batch', 'x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 3)


def sharded_relu(v):
    return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


@nnx.vmap(in_axes=0, out_axes=0, spmd_axis_name='batch')
def forward(v):
    return sharded_relu(v)


def main():
    x = jnp.linspace(-1.0, 1.0, 4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = forward(x)
    reference = np.maximum(np.asarray(x), 0.0)
    return result, reference
