"""breaker7 s20 in one module: `in_axes=({"scale": None}, 0)` maps no leaf of `p`, so the body reading
`p["scale"]` closes over nothing batched and JAX runs it (safety/measurements/in_axes_dict_capture.py). Was a false
SPMD003: the dict entry was read as mapping `p`."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def apply(p, x):
    def body(b):
        return b * p["scale"]
    return jax.shard_map(body, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    p = {"scale": 3.0}
    out = jax.vmap(apply, in_axes=({"scale": None}, 0), spmd_axis_name="data")(p, x)
    return out, np.asarray(x) * 3.0
