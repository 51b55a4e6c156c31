import numpy as np

from pkg.train import forward


def main():
    X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    return forward(X), X * np.linspace(0.5, 1.5, 8, dtype=np.float32)
