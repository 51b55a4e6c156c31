"""Run one script's main() -> (result, reference) and print OK / WRONG / RAISED <error>.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 PYTHONPATH=<project>/src python runone.py <script>
"""
import runpy
import sys

import numpy as np

g = runpy.run_path(sys.argv[1])
try:
    r, ref = g['main']()
    import jax
    ok = all(np.allclose(np.asarray(a), np.asarray(b), atol=1e-5)
             for a, b in zip(jax.tree.leaves(r), jax.tree.leaves(ref)))
    print('OK' if ok else 'WRONG')
except Exception as e:  # the harness records what JAX raised
    print('RAISED', type(e).__name__, str(e).splitlines()[0][:120])
