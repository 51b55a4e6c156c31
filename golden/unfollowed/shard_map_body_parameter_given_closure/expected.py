"""A helper applying shard_map to the callable it is given (`apply(x, f)`), given a lambda closing over `shift`,
which the vmap with `spmd_axis_name='data'` batches: JAX fails (`AssertionError: ManualAxisType(...)`;
safety/trials/breaker6/measure_unresolved_body_captures.py, `parameter`). The body `f` is a parameter, not
resolved to a function: an SPMD910 record naming what the call passes (silent before). A decorator's parameter,
given the decorated module-level `def`, gives none (golden add-axis/project_decorator_functools_wraps_call)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def apply(x, f):
    return jax.shard_map(f, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)


def stack(x, shift):
    return apply(x, lambda b: jnp.tanh(b + shift))


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    shift = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    return jax.vmap(stack, spmd_axis_name="data")(xs, shift), np.tanh(xs + shift[:, None])
