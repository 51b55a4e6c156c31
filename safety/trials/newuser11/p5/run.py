import os, sys
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
sys.path.insert(0, "src")
import jax, jax.numpy as jnp
from pa import train
xs = jnp.linspace(-1.0, 1.0, 8 * 4 * 16).reshape(8, 4, 16)
try:
    got = train.main(); print("OK" if jnp.allclose(got, jax.nn.gelu(xs * 2.0), atol=1e-5) else "MISMATCH")
except Exception as e:
    print("ERROR", type(e).__name__, str(e).splitlines()[0][:150])
