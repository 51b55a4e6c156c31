"""A project decorator factory (`@parallel("model")`) whose decorator applies shard_map over a `def` nested in the
vmapped function, closing over the batched `shift`: JAX fails (ManualAxisType;
safety/measurements/decorated_nested_def_closure.py). Silent before; an SPMD910 record at the body now."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def parallel(axis):
    def deco(fn):
        return jax.shard_map(fn, mesh=MESH, in_specs=P(axis), out_specs=P(axis))
    return deco


def model_parallel(fn):
    return jax.shard_map(fn, mesh=MESH, in_specs=P("model"), out_specs=P("model"))


def layer(x, shift):
    @parallel("model")
    def body(b):
        return jnp.tanh(b + shift)
    return body(x)


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    shifts = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    return jax.vmap(layer, spmd_axis_name="data")(xs, shifts), np.tanh(xs + shifts[:, None])

