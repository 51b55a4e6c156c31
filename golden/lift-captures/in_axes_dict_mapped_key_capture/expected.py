"""breaker7 s19 in one module: `in_axes=({"scale": 0, "bias": None}, 0)`; the body closes over `scale =
p["scale"]` (a mapped key: JAX fails, ManualAxisType) and reads `p["bias"]` (an unmapped key alone: runs;
safety/measurements/in_axes_dict_capture.py). Was SPMD003 at `scale` and at `p`; `p`, read only by an unmapped
key, is nothing batched now; `scale` is lifted (the lifted program runs: the same measurement)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def apply(p, x):
    scale = p["scale"]
    def body(b, scale):
        return b * scale + p["bias"]
    return jax.shard_map(body, mesh=MESH, in_specs=(P("model"), P()), out_specs=P("model"))(x, scale)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    p = {"scale": jnp.array([1.0, 2.0, 3.0, 4.0]), "bias": jnp.float32(0.5)}
    out = jax.vmap(apply, in_axes=({"scale": 0, "bias": None}, 0), spmd_axis_name="data")(p, x)
    return out, np.asarray(x) * np.array([1.0, 2.0, 3.0, 4.0])[:, None] + 0.5
