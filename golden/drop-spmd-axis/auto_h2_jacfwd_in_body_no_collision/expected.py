import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    # jax.jacfwd batches its pushforwards with a vmap: an inner vmap under check_vma=True (hazard H2), even of
    # the unary jnp.sin; the specs name 'x' only, so H2 is the program's only error
    return jax.shard_map(
        lambda b: jnp.diagonal(jax.jacfwd(jnp.sin)(b)), mesh=mesh, in_specs=P('x'), out_specs=P('x')
    )(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 10.0
    result = jax.vmap(block)(xs)
    reference = np.cos(np.asarray(xs))
    return result, reference
