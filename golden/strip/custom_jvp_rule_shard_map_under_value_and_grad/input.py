"""A shard_map in the rule of a `jax.custom_jvp` registered with the decorator `@square.defjvp`, the spmd vmap
over `jax.value_and_grad(loss)`: the rule runs under the grad, and JAX raises SPMD001's error
(safety/measurements/custom_vjp_fwd_shard_map.py, the custom_jvp rows)."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


@jax.custom_jvp
def square(x):
    return x * x


@square.defjvp
def square_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    y = jax.shard_map(lambda b: b * b, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return y, 2.0 * x * t


def loss(x):
    return square(x).sum()


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    _, grads = jax.vmap(jax.value_and_grad(loss), spmd_axis_name="data")(xs)
    return grads, 2.0 * xs
