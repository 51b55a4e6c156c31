import numpy as np

from pkg.train import step


def main():
    xs = np.linspace(-1, 1, 8 * 8, dtype=np.float32).reshape(8, 8)
    return step(xs), np.tanh(xs) * 2
