import numpy as np
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
