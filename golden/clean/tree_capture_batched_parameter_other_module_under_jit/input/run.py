import numpy as np

from pkg.train import forward, forward2


def main():
    xs = (np.arange(4 * 8, dtype=np.float32).reshape(4, 8) % 7 - 3.0) / 4.0
    return (forward(xs), forward2(xs)), (xs * xs, xs * xs)
