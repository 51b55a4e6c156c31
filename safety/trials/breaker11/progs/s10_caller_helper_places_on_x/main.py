import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.train import step


def to_batch(a):
    return jax.device_put(a, NamedSharding(MESH, P('x', None)))


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    placed = to_batch(xs)
    out = step(placed)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 + 1.0) else "RESULT: mismatch")


main()
