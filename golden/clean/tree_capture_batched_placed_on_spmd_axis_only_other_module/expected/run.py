import numpy as np

from pkg.train import forward


def main():
    X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    return forward(X, W), X * W[:, None, None]
