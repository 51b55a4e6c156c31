"""A long-lived process that imports jax once and evaluates generated programs sent to it.

Protocol (fuzz/run.py drives it): one JSON request per stdin line,
`{"id", "source", "runs": [[strategy, unsafe_fixes], ...], "spmd_vmap": bool}`; one JSON reply per stdout line:

    {"id", "original": RUN, "findings": [FINDING], "unfollowed": [UNFOLLOWED], "spmd_vmap": bool, "fixes": [{"strategy", "unsafe", "output": index | None,
     "error": str, "transforms": [applied transform]}], "outputs": [{"source", "run": RUN, "findings": [FINDING]}]}

RUN is `{"status": "match" | "differs" | "raised" | "invalid", "error": "Type: message"}` ("invalid": the
reference itself raised, a generator bug) (as tests/runtime_oracle.py
classifies: `main()` returns `(result, reference)`, compared with numpy.allclose); FINDING is
`{"code", "line", "message"}`; UNFOLLOWED is an SPMD910 record of the original program (a place on the way
from an spmd vmap that the analysis could not follow), `{"line", "what"}`; `spmd_vmap` is the request's (whether the
program's vmap has spmd_axis_name; default true). A fix that leaves the source unchanged has `output` None. Outputs equal to
each other are run once. spmdfix is called through its public API (`spmdfix.api.check_source`,
`analyse_source`, `fix_source`).
XLA_FLAGS gives 8 CPU devices, set before jax is imported, as the golden runtime tier does.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import contextlib
import importlib.util
import json
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")

import jax
import numpy as np

from fuzz.compare import same_values
from spmdfix.api import analyse_source, check_source, fix_source
from spmdfix.model import STRATEGIES, Options, strategy_of

_TMP = Path(tempfile.mkdtemp(prefix="spmdfix-fuzz-"))
_counter = 0
CLEAR_EVERY = 40  # programs between jax.clear_caches(): every program compiles new functions


def run_program(source: str) -> dict:
    """Import `source` as a fresh module and call its main(); how it ends (see the module docstring)."""
    global _counter
    _counter += 1
    path = _TMP / f"prog_{_counter}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(f"_spmdfix_fuzz_{_counter}", path)
    module = importlib.util.module_from_spec(spec)

    def main():
        spec.loader.exec_module(module)
        return module.main()

    try:
        return run_main(main, {str(path)})
    finally:
        path.unlink(missing_ok=True)


def run_main(main, paths: set[str]) -> dict:
    """Call `main()` (which loads the program and returns `(result, reference)`) and compare; how it ends (the
    module docstring's RUN). `paths`: the program's files, where a frame of the reference marks it invalid."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            result, reference = main()
        results = [np.asarray(x) for x in jax.tree_util.tree_leaves(jax.block_until_ready(result))]
        references = [np.asarray(x) for x in jax.tree_util.tree_leaves(reference)]
    except Exception as err:  # noqa: BLE001 - how the program fails is the measurement
        status = "invalid" if _in_reference(err, paths) else "raised"
        return {"status": status, "error": f"{type(err).__name__}: {err}"[:600]}
    if len(results) != len(references):
        return {"status": "differs", "error": "pytree structure differs"}
    for got, want in zip(results, references):
        if got.shape != want.shape:
            return {"status": "differs", "error": f"shape {got.shape} vs {want.shape}"}
        if not same_values(got, want):
            return {"status": "differs", "error": "values differ"}
    return {"status": "match", "error": ""}


def _in_reference(err: BaseException, paths: set[str]) -> bool:
    """Whether `err` was raised while computing the reference (the `ref_` copy) in one of the program's files
    `paths`: the program is then invalid, a generator bug, not a finding."""
    for frame in traceback.extract_tb(err.__traceback__):
        if frame.filename in paths and (frame.name.startswith("ref_") or "reference =" in (frame.line or "")):
            return True
    return False


def findings_of(source: str) -> list[dict]:
    """`spmdfix check` on `source` with the default options, as small dicts."""
    out = []
    for finding in check_source(source, Options()):
        line = source.count("\n", 0, finding.span.start) + 1
        out.append({"code": finding.code, "line": line, "message": finding.message})
    return out


def unfollowed_of(source: str) -> list[dict]:
    """The SPMD910 records of `source` under the default options (what `check --show-unresolved` lists): the
    places the analysis could not follow, each with its line and what stopped it. A text the prefilter drops
    has none."""
    return [{"line": source.count("\n", 0, u.span.start) + 1, "what": u.what}
            for u in analyse_source(source, Options()).unfollowed]


def evaluate(request: dict) -> dict:
    """Run the program, check it, fix it with every requested (strategy, unsafe) and run each new output."""
    source = request["source"]
    reply: dict = {"id": request.get("id"), "original": run_program(source), "findings": findings_of(source),
                   "unfollowed": unfollowed_of(source),
                   # the generator knows whether the program's vmap has spmd_axis_name (`gen.spmd_vmap`)
                   "spmd_vmap": request.get("spmd_vmap", True)}
    runs = request.get("runs") or [[str(s), u] for s in STRATEGIES for u in (False, True)]
    outputs: list[str] = []
    fixes = []
    for strategy, unsafe in runs:
        entry = {"strategy": strategy, "unsafe": unsafe, "output": None, "error": ""}
        try:
            result = fix_source(source, Options(strategy=strategy_of(strategy), unsafe_fixes=unsafe))
            if result.errors:
                entry["error"] = "; ".join(result.errors)[:600]
            entry["transforms"] = sorted({str(fx.transform.value) for fx in result.applied})
            if result.source != source:
                if result.source not in outputs:
                    outputs.append(result.source)
                entry["output"] = outputs.index(result.source)
        except Exception as err:  # noqa: BLE001 - a crash of the tool is a finding of the fuzzer
            entry["error"] = f"crash {type(err).__name__}: {err}"[:600]
        fixes.append(entry)
    reply["fixes"] = fixes
    reply["outputs"] = [{"source": out, "run": run_program(out), "findings": findings_of(out)} for out in outputs]
    return reply


def main() -> None:
    assert len(jax.devices()) == 8, jax.devices()
    print(json.dumps({"ready": True}), flush=True)
    done = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = evaluate(json.loads(line))
        print(json.dumps(reply), flush=True)
        done += 1
        if done % CLEAR_EVERY == 0:
            jax.clear_caches()


if __name__ == "__main__":
    main()
