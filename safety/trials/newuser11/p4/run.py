"""Runs train.main; compares with the intended values (mean_rows: x / 2; affine: 2x + 1). Prints OK / MISMATCH / ERROR."""
import os, sys
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
import jax.numpy as jnp
from axes import train

xs = jnp.arange(8 * 4 * 16, dtype=jnp.float32).reshape(8, 4, 16)
try:
    a, b = train.main()
    print("step", "OK" if jnp.allclose(a, xs / 2) else "MISMATCH", float(a.sum()), float((xs / 2).sum()))
    print("step_affine", "OK" if jnp.allclose(b, xs * 2 + 1) else "MISMATCH")
except Exception as e:
    print("main ERROR", type(e).__name__, str(e).splitlines()[0][:160])
