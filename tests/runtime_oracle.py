"""Runs golden and safety programs under JAX on CPU with 8 virtual devices; one process for all cases.

Invoked by tests/test_runtime.py as `python tests/runtime_oracle.py FILE...`; prints one JSON object per
line: {"file", "status": "raised" | "match" | "differs" | "not-runnable", "error", "detail"}. XLA_FLAGS is set
before jax is imported, as docs/jax-behaviour.md says; each file is imported under a unique module
name and its `main()` must return `(result, reference)` (golden/README.md).
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import importlib.util  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)

import jax  # noqa: E402
import numpy as np  # noqa: E402


def _run(path: str, index: int) -> dict:
    """Run one program; a tree's `run.py` runs with its tree first on sys.path, and the modules it imported
    are forgotten afterwards (trees reuse package names)."""
    tree = os.path.basename(path) == "run.py"
    before = set(sys.modules)
    if tree:
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        return _run_module(path, index)
    finally:
        if tree:
            sys.path.pop(0)
            for name in set(sys.modules) - before:
                del sys.modules[name]


def _run_module(path: str, index: int) -> dict:
    spec = importlib.util.spec_from_file_location(f"_spmdfix_case_{index}", path)
    module = importlib.util.module_from_spec(spec)
    # registered as an import registers it (a program reading `sys.modules[__name__]` finds itself), then let go
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        if not hasattr(module, "main"):
            return {"file": path, "status": "not-runnable", "error": "", "detail": "no main()"}
        result, reference = module.main()
        results = [np.asarray(x) for x in jax.tree_util.tree_leaves(jax.block_until_ready(result))]
        references = [np.asarray(x) for x in jax.tree_util.tree_leaves(reference)]
    except Exception as err:  # noqa: BLE001 - recording how the program fails is the point
        text = f"{type(err).__name__}: {err}"
        return {"file": path, "status": "raised", "error": text, "detail": traceback.format_exc()[-2000:]}
    finally:
        sys.modules.pop(spec.name, None)
    if len(results) != len(references):
        return {"file": path, "status": "differs", "error": "", "detail": "pytree structure differs"}
    for got, want in zip(results, references):
        if got.shape != want.shape:
            return {"file": path, "status": "differs", "error": "", "detail": f"shape {got.shape} vs {want.shape}"}
        if not np.allclose(got, want):
            return {"file": path, "status": "differs", "error": "", "detail": "values differ"}
    return {"file": path, "status": "match", "error": "", "detail": ""}


def _restore_config(saved: dict) -> None:
    """Undo `jax.config.update` calls a program made (e.g. `jax_disable_vmap_shmap_error`): every program runs
    under the same configuration, whatever ran before it in this process."""
    for name, value in saved.items():
        if jax.config.values.get(name) != value:
            jax.config.update(name, value)


def main(paths: list[str]) -> None:
    assert len(jax.devices()) == 8, jax.devices()
    saved = dict(jax.config.values)
    for i, path in enumerate(paths):
        print(json.dumps(_run(path, i)), flush=True)
        _restore_config(saved)


if __name__ == "__main__":
    main(sys.argv[1:])
