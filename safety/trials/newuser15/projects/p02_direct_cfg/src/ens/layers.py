"""Sharded layers: each applies a shard_map over the mesh."""
import jax
import jax.numpy as jnp

from ens import specs
from ens.config import CFG
from ens.mesh import MESH


def mlp(x, w):
    """x: (B, D) rows over data, w: (D, H) columns over model -> (B, H)."""
    def body(xb, wb):
        return jnp.tanh(xb @ wb)
    return jax.shard_map(body, mesh=MESH, in_specs=(specs.rows(), specs.cols()), out_specs=specs.tile())(x, w)


def col_dense(x, w):
    """x: (B, D) replicated over data, w columns over model: no data axis in the specs."""
    def body(xb, wb):
        return xb @ wb
    return jax.shard_map(body, mesh=MESH, in_specs=(P_NONE, specs.cols()), out_specs=specs.model_only())(x, w)


def center(x):
    """Subtract the global mean over the data axis (pmap-era pmean)."""
    def body(xb):
        return xb - jax.lax.pmean(xb.mean(0, keepdims=True), CFG.data)
    return jax.shard_map(body, mesh=MESH, in_specs=specs.rows(), out_specs=specs.rows())(x)


def center_model(x):
    """Mean over the model axis only; specs name only model."""
    def body(xb):
        return xb - jax.lax.pmean(xb, CFG.model)
    return jax.shard_map(body, mesh=MESH, in_specs=specs.model_only(), out_specs=specs.model_only())(x)


P_NONE = jax.sharding.PartitionSpec()
