import numpy as np
from pkg.train import step
from pkg.sizes import model_size

def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0) and (model_size() == 4)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
