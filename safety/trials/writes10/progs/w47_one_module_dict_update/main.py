import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
DATA = "model"


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = "model"


CFG = TrainConfig()
CFG.__dict__.update(data_axis="data")


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(CFG.data_axis), out_specs=P(CFG.data_axis))(x)


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")


if __name__ == "__main__":
    main()
