import numpy as np

from pkg.config import W
from pkg.train import forward


def main():
    xs = (np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) - 21.0) / 16.0
    return forward(xs), xs * np.asarray(W)
