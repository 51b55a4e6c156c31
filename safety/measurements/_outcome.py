"""What the measurement scripts of issues 20, 22 and 23 share: 8 virtual CPU devices and one outcome line.

Importing this module sets `XLA_FLAGS=--xla_force_host_platform_device_count=8` (and the CPU platform) before
JAX is imported, so a script imports it first. `outcome(run, reference)` calls `run()` and says what happened
in the words the scripts print:

- `runs, matches reference` (same shape, `np.allclose` with atol 1e-5 on every leaf),
- `runs, WRONG values (max abs diff D)` or `runs, WRONG shape S (reference R)`,
- `<ExceptionType>: <first non-empty line of its message>` (cut at 150 characters).

`show(label, run, reference)` prints `label` padded, then the outcome. `show_group(label, variants, reference)`
runs several variants of one program (say `cv=True eager`, `cv=True jit`, ...): when they all give the same
outcome it prints one line, `label [all]`, else one line per variant, `label [variant]`.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # XLA's "involuntary full rematerialization" warnings

import jax  # noqa: E402
import numpy as np  # noqa: E402

WIDTH = 96


def first_line(err: BaseException) -> str:
    """The exception's type and the first non-empty line of its message."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return f"{type(err).__name__}: {lines[0][:150] if lines else ''}".rstrip(": ")


def compare(got, reference) -> str:
    """`runs, matches reference` or what differs, leaf by leaf over two pytrees of arrays or numbers."""
    got_leaves, ref_leaves = jax.tree.leaves(got), jax.tree.leaves(reference)
    if len(got_leaves) != len(ref_leaves):
        return f"runs, WRONG structure ({len(got_leaves)} leaves, reference {len(ref_leaves)})"
    worst = 0.0
    for g, r in zip(got_leaves, ref_leaves):
        g, r = np.asarray(g), np.asarray(r)
        if g.shape != r.shape:
            return f"runs, WRONG shape {g.shape} (reference {r.shape})"
        if not np.allclose(g, r, atol=1e-5):
            worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - r.astype(np.float64)))))
    return "runs, matches reference" if worst == 0.0 else f"runs, WRONG values (max abs diff {worst:.4g})"


def outcome(run, reference) -> str:
    """Call `run()` and compare its result with `reference`; an exception is the outcome."""
    try:
        got = run()
        jax.block_until_ready(got)
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        return first_line(err)
    return compare(got, reference)


def value(run):
    """Call `run()`: its result, or the exception's first line as a string prefixed `raises `."""
    try:
        return run()
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        return "raises " + first_line(err)


def show(label: str, run, reference) -> str:
    """Print `label` and the outcome of `run()` against `reference`; return the outcome."""
    text = outcome(run, reference)
    print(f"{label:{WIDTH}} {text}", flush=True)
    return text


def show_group(label: str, variants: dict, reference) -> dict:
    """Run each `variants[name]()` against `reference`; print one line when all agree, else one per variant.
    Returns {name: outcome}."""
    results = {name: outcome(run, reference) for name, run in variants.items()}
    if len(set(results.values())) == 1:
        tag = "all" if len(results) > 1 else next(iter(results))
        print(f"{label + ' [' + tag + ']':{WIDTH}} {next(iter(results.values()))}", flush=True)
    else:
        for name, text in results.items():
            print(f"{label + ' [' + name + ']':{WIDTH}} {text}", flush=True)
    return results


def header(title: str, variants=()) -> None:
    """The first lines every script prints: what it measures, the JAX version and device count, and what `[all]`
    stands for in its groups."""
    print(f"{title} (jax {jax.__version__}, {len(jax.devices())} {jax.devices()[0].platform} devices)", flush=True)
    if variants:
        print(f"[all] = the same outcome for every variant: {', '.join(variants)}", flush=True)
