"""Runs the block on a batch of sequences, vmapped over the batch with the batch on DATA."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

from .block import build
from .config import DATA


def forward(model, xs):
    @nnx.vmap(in_axes=(None, 0), spmd_axis_name=DATA)
    def per_seq(m, x):
        return m(x)
    return per_seq(model, xs)


def reference(model, xs):
    out = []
    for x in np.asarray(xs):
        h = model.ln(jnp.asarray(x))
        h = jax.nn.gelu(h @ model.w_in[...]) @ model.w_out[...]
        out.append(x + h)
    return np.stack(out)


def main():
    model = build()
    xs = jax.random.normal(jax.random.key(1), (4, 6, 8))
    got = np.asarray(forward(model, xs))
    ref = reference(model, xs)
    print("OK" if np.allclose(got, ref, atol=1e-5) else "MISMATCH", float(np.abs(got).sum()))


if __name__ == "__main__":
    main()
