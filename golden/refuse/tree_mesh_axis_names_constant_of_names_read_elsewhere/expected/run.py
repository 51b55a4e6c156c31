import numpy as np

from pkg.train import step


def main():
    x = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    return step(x), np.tanh(x) * 2.0 / 2
