import numpy as np

from pkg.train import forward


def main():
    xs = np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0
    return forward(xs), xs + 1.0
