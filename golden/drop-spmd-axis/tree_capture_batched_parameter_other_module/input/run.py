import numpy as np

from pkg.train import forward, forward_called


def main():
    xs = (np.arange(4 * 8, dtype=np.float32).reshape(4, 8) % 7 - 3.0) / 4.0
    return (forward(xs), forward_called(xs)), (xs * xs, xs * xs)
