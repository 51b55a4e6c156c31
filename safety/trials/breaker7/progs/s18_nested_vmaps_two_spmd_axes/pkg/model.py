import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def expert_ffn(x):
    return jax.shard_map(lambda b: jax.nn.silu(b), mesh=MESH, in_specs=P(None, "data"), out_specs=P(None, "data"))(x)


def forward(x):
    per_expert = jax.vmap(expert_ffn, spmd_axis_name="expert")
    return jax.vmap(per_expert, spmd_axis_name="data")(x)
