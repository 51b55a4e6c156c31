import numpy as np

from pkg.layers import forward


def main():
    xs = np.linspace(-1.0, 1.0, 4 * 8, dtype=np.float32).reshape(4, 8)
    return forward(xs), np.tanh(xs * 2.0 + 1.0 - 0.5)
