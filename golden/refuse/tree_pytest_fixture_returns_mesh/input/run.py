import numpy as np

from pkg.model import forward


def main():
    xs = np.linspace(-1, 1, 4 * 8, dtype=np.float32).reshape(4, 8)
    return forward(xs), np.sin(xs) + 1.0
