"""Tensor-parallel dense layer: the contraction dimension is split over MODEL, partial sums psum'd."""
import jax
from jax.sharding import PartitionSpec as P

from trainer.mesh import DATA, MESH, MODEL


def _dense_shard(x, w):
    return jax.lax.psum(x @ w, MODEL)


dense = jax.shard_map(_dense_shard, mesh=MESH, in_specs=(P(DATA, MODEL), P(MODEL, None)), out_specs=P(DATA, None))


def mlp(params, x):
    h = jax.nn.relu(dense(x, params["w1"]))
    return dense(h, params["w2"])
