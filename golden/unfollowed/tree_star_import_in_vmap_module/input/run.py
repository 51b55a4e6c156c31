import numpy as np

from pkg.train import step


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    w = (np.arange(16 * 8, dtype=np.float32).reshape(16, 8) % 5 - 2.0) / 3.0
    return step(w, xs), np.tanh(xs @ w)
