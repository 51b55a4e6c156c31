import numpy as np

from pkg.train import forward


def main():
    xs = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) - 50.0) / 64.0
    w = np.arange(4, dtype=np.float32) / 8.0 + 0.25
    return forward(xs, w), xs * (w * 2.0)[None, :, None]
