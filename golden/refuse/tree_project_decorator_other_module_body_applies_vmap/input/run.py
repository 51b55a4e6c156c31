import numpy as np

from pkg.model import forward


def main():
    xs = np.linspace(-2.0, 2.0, 4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16)
    return forward(xs), np.logaddexp(xs, 0.0)
