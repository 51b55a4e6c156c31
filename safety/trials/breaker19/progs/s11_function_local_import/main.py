import numpy as np

from pkg.stats import colsum
from pkg.train import step


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    out = np.asarray(step(xs))
    got = np.asarray(colsum(xs[0]))
    ref = xs * 2.0
    want = xs[0].reshape(2, 4, 16).sum(1)
    ok = np.allclose(out, ref, atol=1e-4) and got.shape == want.shape and np.allclose(got, want, atol=1e-4)
    print("RESULT: match" if ok else "RESULT: mismatch")


if __name__ == "__main__":
    main()
