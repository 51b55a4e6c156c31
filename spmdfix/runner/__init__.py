"""The per-file runner: read, check / fix / add noqa, and report; total (it never raises for a file).

One result per file (`spmdfix.results`), whatever happened to it: the findings left after suppression and
rule selection, the new text when something changes, or why the file was skipped or failed. A `Job` and its
result are plain picklable data, so `run_jobs` can spread files over worker processes; the CLI decides what
to print and write.

One module per concept:
- `job`: what to do with one file (`Job`) and how reports name it (`display_path`);
- `one_file`: what happens to one file (`run_file`, `run_source`, `run_batch`): the semantics;
- `clean_bytes`: what a module's bytes prove before it is decoded (most files of a tree: nothing to find);
- `wire`: what crosses between the main process and a worker, packed (a speed device, measured there);
- `pool`: the worker processes and what happens when one dies;
- `schedule`: how files are spread over the processes (`run_jobs`, `run_streamed`);
- `cross_module`: the fixes of `fix` that edit other modules (`cross_module_fixes`).
The names below are the runner's interface (the CLI's and the tests'), each loaded from its module when
first asked for (PEP 562, as `spmdfix`'s own names: this package imports none of its modules, so none of
them imports back into a package being initialised, and a check never loads `cross_module`). A test that
replaces a name for the runner to see replaces it in the module that uses it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spmdfix.runner.clean_bytes import bytes_prove_clean, clean_if_utf8
    from spmdfix.runner.cross_module import (
        MAX_ROUNDS,
        CrossModuleFixes,
        cross_module_fixes,
    )
    from spmdfix.runner.job import Job, display_path
    from spmdfix.runner.one_file import (
        RECURSION_BUDGET,
        Deferred,
        run_batch,
        run_file,
        run_source,
    )
    from spmdfix.runner.pool import RETAIN_CHARS, worker_pool
    from spmdfix.runner.schedule import (
        BATCH_MAX,
        PARALLEL_COST,
        SMALL_TREE,
        STREAM_BATCH,
        run_jobs,
        run_streamed,
        stream_jobs,
    )

_WHERE = {
    "bytes_prove_clean": "spmdfix.runner.clean_bytes",
    "clean_if_utf8": "spmdfix.runner.clean_bytes",
    "MAX_ROUNDS": "spmdfix.runner.cross_module",
    "CrossModuleFixes": "spmdfix.runner.cross_module",
    "cross_module_fixes": "spmdfix.runner.cross_module",
    "Job": "spmdfix.runner.job",
    "display_path": "spmdfix.runner.job",
    "RECURSION_BUDGET": "spmdfix.runner.one_file",
    "Deferred": "spmdfix.runner.one_file",
    "run_batch": "spmdfix.runner.one_file",
    "run_file": "spmdfix.runner.one_file",
    "run_source": "spmdfix.runner.one_file",
    "RETAIN_CHARS": "spmdfix.runner.pool",
    "worker_pool": "spmdfix.runner.pool",
    "BATCH_MAX": "spmdfix.runner.schedule",
    "PARALLEL_COST": "spmdfix.runner.schedule",
    "SMALL_TREE": "spmdfix.runner.schedule",
    "STREAM_BATCH": "spmdfix.runner.schedule",
    "run_jobs": "spmdfix.runner.schedule",
    "run_streamed": "spmdfix.runner.schedule",
    "stream_jobs": "spmdfix.runner.schedule",
}
__all__ = [
    "BATCH_MAX",
    "MAX_ROUNDS",
    "PARALLEL_COST",
    "RECURSION_BUDGET",
    "RETAIN_CHARS",
    "SMALL_TREE",
    "STREAM_BATCH",
    "CrossModuleFixes",
    "Deferred",
    "Job",
    "bytes_prove_clean",
    "clean_if_utf8",
    "cross_module_fixes",
    "display_path",
    "run_batch",
    "run_file",
    "run_jobs",
    "run_source",
    "run_streamed",
    "stream_jobs",
    "worker_pool",
]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'spmdfix.runner' has no attribute {name!r}")
