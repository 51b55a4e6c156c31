import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


@functools.partial(jax.tree_util.register_dataclass, data_fields=["bias"], meta_fields=["axis"])
@dataclasses.dataclass
class RowBias:
    bias: jax.Array
    axis: str = "data"

    def __call__(self, x):
        return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(x) + self.bias


def main():
    layer = RowBias(bias=jnp.float32(0.5))
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(lambda lyr, v: lyr(v), in_axes=(None, 0), spmd_axis_name="data")(layer, x)
    ref = np.asarray(x) + 1.5
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
