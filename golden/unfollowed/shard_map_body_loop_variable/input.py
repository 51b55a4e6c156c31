"""breaker6 r35: the shard_map body is a loop variable over a local list of lambdas (`for f in fns`), each closing
over `shift`, which the vmap with `spmd_axis_name='data'` batches: JAX fails (`AssertionError: ManualAxisType(...)`,
as on the lambda written in place; safety/trials/breaker6/measure_unresolved_body_captures.py). The body is not
resolved to a function, so its captures were not read: silent before; an SPMD910 record at the body now."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def stack(x, shift):
    fns = [lambda b, k=k: jnp.tanh(b + k * shift) for k in range(2)]
    h = x
    for f in fns:
        h = jax.shard_map(f, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(h)
    return h


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    shift = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    ref = np.tanh(np.tanh(xs) + shift[:, None])
    return jax.vmap(stack, spmd_axis_name="data")(xs, shift), ref
