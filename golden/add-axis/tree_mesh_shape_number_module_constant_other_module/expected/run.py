import jax
import numpy as np

from pkg.eval import DEVICES, EVAL_BATCH
from pkg.model import block


def main():
    n = EVAL_BATCH
    xs = np.linspace(-1, 1, n * 8, dtype=np.float32).reshape(n, 8)
    out = jax.vmap(block, spmd_axis_name="batch")(xs)
    return out * DEVICES / n, np.tanh(xs) * 8 / 8
