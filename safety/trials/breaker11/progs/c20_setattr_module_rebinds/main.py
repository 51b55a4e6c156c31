import numpy as np
import pkg.config
setattr(pkg.config, 'W', pkg.config.W[None, :])
from pkg import config
from pkg.train import forward


def main():
    xs, out = forward()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * np.asarray(config.W)) else "RESULT: mismatch")


main()
