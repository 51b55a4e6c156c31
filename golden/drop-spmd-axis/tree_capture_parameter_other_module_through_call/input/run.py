import numpy as np

from pkg.train import forward


def main():
    xs = (np.arange(4 * 8, dtype=np.float32).reshape(4, 8) % 7 - 3.0) / 4.0
    w = np.linspace(0.5, 1.5, 8, dtype=np.float32)
    return forward(xs, w), (xs * w) * (xs * w)
