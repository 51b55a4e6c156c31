import numpy as np

from pkg.train import step


def main():
    xs = np.arange(2 * 8 * 4, dtype=np.float32).reshape(2, 8, 4)
    return step(xs), xs * 2.0
