import numpy as np

from pkg import config
from pkg.train import forward


def main():
    config.W = config.W[None, :]
    xs = (np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) - 21.0) / 16.0
    out = forward(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * np.asarray(config.W)) else "RESULT: mismatch")


main()
