"""Runs train.main; compares with a per-example loop without vmap. Prints OK / MISMATCH / ERROR."""
import os, sys
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
import jax, jax.numpy as jnp
from dec import train

xs = jnp.linspace(-2.0, 2.0, 8 * 4 * 16).reshape(8, 4, 16)
ss = jnp.linspace(0.5, 1.5, 8)
vg = jax.jit(jax.value_and_grad(train.loss))
refs = [vg(x, s) for x, s in zip(xs, ss)]
ref = (jnp.stack([r[0] for r in refs]), jnp.stack([r[1] for r in refs]))
try:
    got = train.main()
    ok = all(jnp.allclose(a, b, rtol=1e-4, atol=1e-5) for a, b in zip(got, ref))
    print("main", "OK" if ok else "MISMATCH", float(got[0].sum()), float(ref[0].sum()))
except Exception as e:
    print("main ERROR", type(e).__name__, str(e).splitlines()[0][:160])
