"""How the fuzzer compares a program's result with its reference (fuzz/worker.py), apart from the worker so that a
test can import it without the worker's process settings (XLA_FLAGS, a temporary directory, jax)."""

from __future__ import annotations

import numpy as np


def same_values(got: np.ndarray, want: np.ndarray) -> bool:
    """Whether a result equals its reference up to float32 rounding. The program and its reference may run the
    same float32 computation in another order (one under `jax.jit`, one eager: a jitted `cumsum` is a parallel
    scan, an eager one a running sum), so an element may differ by a few ulps of the array's largest value, not
    of its own: an element near zero (a cumsum crossing zero) fails numpy's default test (atol 1e-8) by rounding
    alone (fuzz seed 60561: 7.6e-6 apart in values up to ~150). The tolerance is therefore scaled by the
    reference's magnitude; the wrong values a fix may cause (a batch replicated or split on the wrong axis, a
    collective over the wrong axis, a capture broadcast) move elements by about that magnitude itself."""
    scale = float(np.max(np.abs(want))) if want.size and np.issubdtype(want.dtype, np.floating) else 0.0
    return bool(np.allclose(got, want, rtol=1e-5, atol=1e-8 + 1e-5 * scale))

