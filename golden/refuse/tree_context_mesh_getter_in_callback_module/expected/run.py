import numpy as np

from pkg import hooks
from pkg.train import step


def main():
    xs = np.linspace(-1, 1, 4 * 8, dtype=np.float32).reshape(4, 8)
    return step(xs, on_step=hooks.replicas), (xs * 0.5 + 2.0) * 2
