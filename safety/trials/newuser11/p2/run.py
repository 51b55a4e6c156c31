"""Runs train.forward; compares with a per-example loop without vmap. Prints OK / MISMATCH / ERROR."""
import os, sys
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
import jax, jax.numpy as jnp
from seq import model, train

ws = jax.random.normal(jax.random.key(0), (3, 16, 16)) / 4
xs = jax.random.normal(jax.random.key(1), (4, 8, 16))
ref = jnp.stack([jax.jit(model.stack)(ws[:2], x) for x in xs])
try:
    got = train.forward(ws, xs)
    print("forward", "OK" if jnp.allclose(got, ref, rtol=1e-4, atol=1e-5) else "MISMATCH", float(got.sum()), float(ref.sum()))
except Exception as e:
    print("forward ERROR", type(e).__name__, str(e).splitlines()[0][:120])
