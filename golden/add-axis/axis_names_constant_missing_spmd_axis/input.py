"""A partial-manual shard_map whose `axis_names` holds a module constant (`axis_names={X}`, `X = 'x'`) under a
vmap over 'y': 'y' is not manual there (SPMD008; found by the fuzzer, seed 7939: the constant was not read and
the finding was missed). add-axis appends the new axis to `axis_names` too."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

X = 'x'
Y = 'y'

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (X, Y))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(X), out_specs=P(X), axis_names={X})(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name=Y)(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
