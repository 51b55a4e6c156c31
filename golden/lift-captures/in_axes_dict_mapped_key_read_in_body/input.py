"""leftovers8: `in_axes=({"scale": 0, "bias": None}, 0)` and a body reading `p["scale"]` (a mapped key: JAX
fails, ManualAxisType) and `p["bias"]`; the body reads `p` only by string keys, one of them mapped: `p` is a batched
capture (SPMD003). Lifted, the dict is an operand under `P()` and runs (safety/measurements/in_axes_dict_capture.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def apply(p, x):
    def body(b):
        return b * p["scale"] + p["bias"]
    return jax.shard_map(body, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    p = {"scale": jnp.array([1.0, 2.0, 3.0, 4.0]), "bias": jnp.float32(0.5)}
    out = jax.vmap(apply, in_axes=({"scale": 0, "bias": None}, 0), spmd_axis_name="data")(p, x)
    return out, np.asarray(x) * np.array([1.0, 2.0, 3.0, 4.0])[:, None] + 0.5
