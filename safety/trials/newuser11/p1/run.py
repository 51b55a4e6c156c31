"""Runs predict and grad_step; compares with a per-example loop without vmap. Prints OK / MISMATCH / ERROR."""
import os, sys
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
import jax, jax.numpy as jnp
from pkg import model, train

params = train.init(jax.random.key(0))
xs = jax.random.normal(jax.random.key(1), (4, 8, 16))
ys = jax.random.normal(jax.random.key(2), (4, 8, 16))
fwd = jax.jit(model.forward)
ref_pred = jnp.stack([fwd(params, x) for x in xs])
def ref_loss(p):
    return jnp.mean(jnp.stack([jnp.mean((model.forward(p, x) - y) ** 2) for x, y in zip(xs, ys)]))
ref_grad = jax.jit(jax.grad(ref_loss))(params)
for name, fn, ref in [("predict", lambda: train.predict(params, xs), ref_pred),
                      ("grad_step", lambda: train.grad_step(params, xs, ys), ref_grad)]:
    try:
        got = fn()
        ok = all(jnp.allclose(a, b, rtol=1e-4, atol=1e-5) for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(ref)))
        print(name, "OK" if ok else "MISMATCH")
    except Exception as e:
        print(name, "ERROR", type(e).__name__, str(e).splitlines()[0][:120])
