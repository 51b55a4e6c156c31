import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("ens", "model"))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Scale:
    scale: jax.Array

    def __call__(self, x):
        def body(b):
            return b * self.scale
        return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def apply(m: Scale, x):
    return m(x)


def main():
    members = Scale(scale=jnp.arange(1.0, 5.0))  # 4 ensemble members, scale stacked
    xs = jnp.ones((4, 8))
    out = jax.vmap(apply, spmd_axis_name="ens")(members, xs)
    ref = np.arange(1.0, 5.0)[:, None] * np.ones((4, 8))
    print("RESULT:", "match" if out.shape == ref.shape and np.allclose(out, ref) else f"mismatch {out.shape}")


main()
