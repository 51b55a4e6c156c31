"""What goes between the main process and a worker: a batch of jobs packed, and its results packed.

A batch of jobs and its results are pickled to and from a worker. Pickled as they are, each job and each
result rebuilds a dataclass field by field and its path part by part: for the 3,343 files of the reference
corpus 0.22-0.25 s of CPU in all (jobs 0.02-0.03 s to pickle in the main process and 0.08 s to load in a
worker, outcomes 0.03-0.04 s and 0.09 s; least of 3 in one process), against 0.09 s packed
(bench/README.md, "A timeline of a cold run with two workers"). Most of it was repeated: the jobs of a
batch differ only in their path and display (the rest is the same settings' objects), and most results
are a `Checked` with nothing found or a first pass's `Deferred` with its cost, which the job they answer
rebuilds. So:

- `pack_jobs` sends a batch's shared fields once, and its paths as strings (`unpack_jobs` rebuilds it);
- `run_packed`, a worker's task, runs the batch and sends each plain `Checked` result as None, each
  `Deferred` one as its cost, and each `Checked` one whose only field is that the run walks the file's whole
  project as `WALKED` (`pack_results`); a check without stamps reads each file first and sends the files
  their bytes clear as None without building a job or a result for them;
- `unpack_results` rebuilds the results in the main process from the batch's jobs.

A round-trip test (tests/test_scheduling.py, tests/test_prefilter.py) covers both forms and the batches
that go unpacked (their jobs differ in another field).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from pathlib import Path

from spmdfix.file_settings import FileSettings
from spmdfix.files import TooLarge, read_bytes
from spmdfix.prefilter.reached import may_hold_reached_bytes
from spmdfix.results import IMPORTERS_KEY, WALKED, Checked, FileResult, Mode
from spmdfix.runner.clean_bytes import bytes_prove_clean
from spmdfix.runner.job import Job
from spmdfix.runner.one_file import (
    Deferred,
    recursion_budget,
    roots_kept,
    run_batch,
    run_decoded,
    run_file,
    run_reached,
    walked_whole,
)

_SHARED = tuple(f.name for f in dataclasses.fields(Job) if f.name not in ("path", "display"))


def pack_jobs(batch: list[Job]) -> tuple | list[Job]:
    """`batch` for a worker (`unpack_jobs`): (the fields but path and display that every job shares, the
    paths as strings, the displays); the list itself when the jobs differ in another field."""
    shared = _shared_fields(batch[0])
    if all(_shared_fields(job) == shared for job in batch):
        return shared, [str(job.path) for job in batch], [job.display for job in batch]
    return batch


# (an attrgetter: one call in C per job, where a generator of getattr calls cost the main process, which
# packs every batch, 0.02-0.03 s for the reference corpus)
_shared_fields = operator.attrgetter(*_SHARED)


def unpack_jobs(packed: tuple | list[Job]) -> list[Job]:
    """The jobs `pack_jobs` packed (in a worker)."""
    if isinstance(packed, list):
        return packed
    shared, paths, displays = packed
    return [Job(Path(path), display, *shared) for path, display in zip(paths, displays)]


_MODE, _INCLUDE_GENERATED, _MAX_BYTES, _STAMP, _KEPT, _WALKED, _OPTIONS, _ENABLED, _PROJECT_ROOT = (
    _SHARED.index(name)
    for name in ("mode", "include_generated", "max_bytes", "stamp", "kept", "walked", "options", "enabled", "project_root")
)


def run_packed(packed: tuple | list[Job], defer: bool) -> list:
    """A worker's task: `run_batch` of the packed jobs, its outcomes packed (`pack_results`).

    A check without stamps (`--no-cache`) reads each file by its path's string first: a module its bytes
    clear (`bytes_prove_clean`, most files of a tree) is packed as None without a `Path`, a `Job` or a
    result built for it (9% of the instructions of a first pass over the 3,330 files of the reference
    corpus), unless it names what another module's vmap may place a finding at (`may_be_reached_bytes`,
    `one_file.run_reached`) in a project the run does not walk whole (`one_file.walked_whole`: then no
    word is looked for); the others run as `run_batch` runs them, from the bytes read."""
    if isinstance(packed, list):
        return pack_results(run_batch(packed, defer=defer))
    shared, paths, displays = packed
    if shared[_MODE] is not Mode.CHECK or shared[_KEPT] or shared[_STAMP]:
        return pack_results(run_batch(unpack_jobs(packed), defer=defer))
    include_generated, max_bytes, walked = shared[_INCLUDE_GENERATED], shared[_MAX_BYTES], shared[_WALKED]
    settings = FileSettings(shared[_OPTIONS], shared[_ENABLED], shared[_PROJECT_ROOT])  # (`Job.settings`)
    out: list = []
    with recursion_budget(), roots_kept():
        for path, display in zip(paths, displays):
            try:
                raw = read_bytes(path, max_bytes)
            except (OSError, TooLarge):  # reported as `run_file` reports it (reading it again)
                out.append(_packed(run_file(Job(Path(path), display, *shared), defer)))
                continue
            clean = bytes_prove_clean(path, raw, include_generated)
            if clean and (
                path.endswith(".ipynb")
                or walked_whole(path, settings, walked)  # (`one_file._no_partial_run`: no stamps here)
                or not may_hold_reached_bytes(raw)
            ):
                out.append(None)  # what `pack_results` sends for its plain `Checked` result
                continue
            job = Job(Path(path), display, *shared)
            out.append(_packed(run_reached(job, raw, defer) if clean else run_decoded(job, raw, defer)))
    return out


# A `Checked` result's fields but its path and display, and their defaults (a file with nothing to report);
# the same with only the mark that the run walks the file's whole project (`one_file.run_reached`: a fifth
# of the modules of a tree name a spec, a mesh or a sharding and nothing more).
_CHECKED_REST = operator.attrgetter(*(f.name for f in dataclasses.fields(Checked) if f.name not in ("path", "display")))
_PLAIN_REST = _CHECKED_REST(Checked(Path(), ""))
_WALKED_DEPENDS = ((IMPORTERS_KEY, WALKED),)
_WALKED_REST = _CHECKED_REST(Checked(Path(), "", depends=_WALKED_DEPENDS))


def pack_results(outcomes: list[FileResult]) -> list:
    """Each result as the main process reads it back (`unpack_results`): None for a `Checked` one with every
    other field at its default, `WALKED` for one whose only other field is `depends=((IMPORTERS_KEY,
    WALKED),)`, the cost (an int) for a `Deferred` one without a stamp, else the result."""
    return [_packed(outcome) for outcome in outcomes]


def _packed(outcome: FileResult) -> FileResult | int | str | None:
    """One result as `pack_results` sends it."""
    kind = outcome.__class__
    if kind is Checked:
        rest = _CHECKED_REST(outcome)
        if rest == _PLAIN_REST:
            return None
        if rest == _WALKED_REST:
            return WALKED
    if kind is Deferred and outcome.stamp is None:
        return outcome.cost
    return outcome


def unpack_results(packed: list, batch: Sequence[Job]) -> list[FileResult]:
    """The results of `batch` from what `run_packed` returned for it."""
    out: list[FileResult] = []
    for job, item in zip(batch, packed, strict=True):
        if item is None:
            out.append(Checked(job.path, job.display))
        elif item.__class__ is str:  # (`WALKED`)
            out.append(Checked(job.path, job.display, depends=_WALKED_DEPENDS))
        elif item.__class__ is int:
            out.append(Deferred(job.path, job.display, item))
        else:
            out.append(item)
    return out
