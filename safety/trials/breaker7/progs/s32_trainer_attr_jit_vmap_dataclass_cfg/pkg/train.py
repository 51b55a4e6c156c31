import jax.numpy as jnp
import numpy as np

from pkg.config import TrainConfig
from pkg.model import Trainer


def main():
    t = Trainer(TrainConfig())
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = t.step(x)
    print("RESULT:", "match" if np.allclose(out, np.sin(np.asarray(x)), atol=1e-5) else "mismatch")
