import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.model import mesh
from pkg.train import forward


def main():
    xs = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) - 50.0) / 64.0
    ws = np.arange(4, dtype=np.float32) / 4.0 + 0.5
    placed_xs = jax.device_put(xs, NamedSharding(mesh, P('data', None, None)))
    placed_ws = jax.device_put(ws, NamedSharding(mesh, P('data')))
    return forward(placed_xs, placed_ws), xs * (ws * 2.0)[:, None, None]
