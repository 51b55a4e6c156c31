import numpy as np
from pkg.train import step
from pkg.model import evaluate

def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0 * 1.0)
    one = evaluate(xs[0]); ok = ok and np.allclose(np.asarray(one), xs[0] * 2.0) and one.addressable_shards[0].data.shape == (4,)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
