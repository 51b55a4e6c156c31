import numpy as np

from pkg.layers import forward


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    out = forward(xs)
    print("RESULT:", "match" if np.allclose(out, xs / (1.0 + np.exp(-xs)), atol=1e-5) else "mismatch")


main()
