"""breaker6 r45: the shard_map body calls `gate`, a function of the same enclosing function that closes over
`scale`, which the vmap with `spmd_axis_name='data'` batches: JAX fails (`AssertionError: ManualAxisType(...)`) as
on a read in the body itself; spmdfix read only the body's own closure and was silent. SPMD003 at the read in
`gate` now; lift-captures is not offered (lifting into the body's parameters leaves `gate`'s closure), and
dropping spmd_axis_name cures it on this Auto mesh."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def layer(x, scale):
    def gate(v):
        return jax.nn.sigmoid(v * scale)

    def body(b):
        return b * gate(b)

    return jax.shard_map(body, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    s = np.array([0.5, 1.0, 1.5, 2.0], dtype=np.float32)
    ref = xs / (1.0 + np.exp(-xs * s[:, None]))
    return jax.vmap(layer, spmd_axis_name="data")(xs, s), ref
