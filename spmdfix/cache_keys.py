"""What a results cache entry is keyed by beyond the file's own bytes, and where the cache lives: the cache
directory (`default_directory`), the tool (`tool_key`: its version and a digest of its own source files),
the settings of a job (`settings_key`) and the project root its analysis searched from (`project_root_of`).
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix import stamps
from spmdfix.cache_file import FORMAT
from spmdfix.dir_entries import listed
from spmdfix.files import root_cache, root_of_directory
from spmdfix.perf import sha256
from spmdfix.analysis.project_answers import HOLDING_KEY, IMPORTERS_OF_KEY, holding_digest, importers_digest
from spmdfix.results import PARTIAL, WALKED
from spmdfix.stamps import stat_key

if TYPE_CHECKING:
    from spmdfix.runner import Job

CACHE_DIR_NAME = ".spmdfix_cache"
ENV_CACHE_DIR = "SPMDFIX_CACHE_DIR"
ROOT_MARKERS = ("pyproject.toml", "spmdfix.toml", ".git")


def default_directory(cwd: Path | None = None) -> Path:
    """`$SPMDFIX_CACHE_DIR`, else `.spmdfix_cache` in the project root of `cwd` (see the module doc)."""
    explicit = os.environ.get(ENV_CACHE_DIR)
    if explicit:
        return Path(explicit)
    start = Path(os.path.abspath(cwd or os.getcwd()))
    for directory in (start, *start.parents):
        if any(os.path.exists(os.path.join(directory, marker)) for marker in ROOT_MARKERS):
            return directory / CACHE_DIR_NAME
    return start / CACHE_DIR_NAME


@functools.lru_cache(maxsize=1)
def tool_key() -> str:
    """spmdfix's version and a digest of its own source files (`.py`, `.md`): results of another build are
    never served. A file counts by its stat (size, mtime, ctime, inode, device: writing it, copying it or
    checking another version out changes its ctime, which no user call can set back), or by its bytes when
    its stat is not settled (`stamps.settled`: a change in the same clock tick keeps the times); reading and hashing
    every file cost each run more than the rest of this key."""
    import spmdfix

    package = Path(spmdfix.__file__).parent
    digest = sha256(f"{spmdfix.__version__}\0{FORMAT}".encode())
    now = time.time_ns()
    for directory, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".md")):
                path = os.path.join(directory, name)
                digest.update(os.path.relpath(path, package).encode() + b"\0")
                key = stat_key(os.stat(path))
                if stamps.settled(key, now):
                    digest.update(repr(key).encode())
                else:
                    with open(path, "rb") as handle:
                        digest.update(b"bytes" + sha256(handle.read()).digest())
    return f"{spmdfix.__version__}-{digest.hexdigest()[:16]}"


@functools.lru_cache(maxsize=64)
def settings_digest(options: object, mode: str, enabled: frozenset[str], rest: tuple) -> str:
    """A digest of a job's options, mode, enabled rule codes and `rest` (its other fields that change an outcome)."""
    return sha256(repr((options, mode, sorted(enabled), rest)).encode()).hexdigest()[:32]


def settings_key(job: Job) -> str:
    """A digest of everything in `job` that can change its outcome, its path aside."""
    return settings_digest(job.options, job.mode, job.enabled, (job.want_edits, job.include_generated, job.max_bytes))


def project_root_of(job: Job) -> str:
    """The project root the analysis of `job` would search for modules now (as `api.project_index` finds
    it; asked only for files that were analysed)."""
    if job.project_root is not None:
        return str(Path(job.project_root).resolve())
    return _root_of_directory(str(Path(job.path).resolve().parent))


@root_cache(maxsize=4096)
def _root_of_directory(directory: str) -> str:
    """`files.find_project_root` of a directory (the one project-root function), once per directory and run."""
    # (a directory this run's walk listed is one: `dir_entries.listed`, no `stat`)
    return root_of_directory(directory if listed(directory) or os.path.isdir(directory) else os.path.dirname(directory))


def importers_state_of(job: Job) -> str:
    """What decides the modules a check of the file of `job` analyses beside it now, as a check recorded it
    (`results.IMPORTERS_KEY`): `WALKED` when the run walks the file's whole project (`Job.walked`), else
    `PARTIAL` and the state of the project's import graph for the file (`project_graph.ProjectGraph.state`:
    which modules of the project that may hold a vmap import it). The graph is built once per process
    (`project_graph.graph_of`), only for a run that has such an entry in partial mode."""
    from spmdfix.runner.job import walks_root

    if job.project_root is None and not os.path.islink(job.path):
        # (once per directory as spelled: a warm run asks this of every module that names a mesh or a spec)
        root = _root_of_directory(os.path.dirname(os.path.abspath(job.path)))
    else:
        root = project_root_of(job)
    if walks_root(job.walked, root):
        return WALKED
    from spmdfix import project_graph  # (a partial run's: a run over the whole project builds no graph)

    return PARTIAL + project_graph.graph_of(root).state(os.path.realpath(job.path))


def importers_of_state(job: Job, path: str) -> str:
    """`importers_digest` of who imports the module at `path` now, in the project of `job`, over the listing a
    cross-module fix is judged against (`project_graph.graph_of(judged=True)`, built once per process)."""
    from spmdfix import project_graph

    root = project_root_of(job)

    def answer() -> str:
        return importers_digest(project_graph.graph_of(root, judged=True).importers_with_dynamic(path))

    # (kept while the project's files are as they were: `project_graph.answered`)
    return project_graph.answered(os.path.realpath(root), IMPORTERS_OF_KEY + path, answer)


def holding_state(job: Job, word: str) -> str:
    """`holding_digest` of the modules of the project of `job` whose text holds `word` now, over the listing a
    cross-module fix is judged against (`project_graph.ProjectGraph.holding`, graph built once per process)."""
    from spmdfix import project_graph

    root = project_root_of(job)

    def answer() -> str:
        # (the cold run's listing, `WordListing`, when no graph was built: the same answer without an import scan)
        return holding_digest(project_graph.holding_source(root)(word))

    return project_graph.answered(os.path.realpath(root), HOLDING_KEY + word, answer)


def walks_directory(walked: tuple[str, ...], directory: str, project_root: Path | None) -> bool:
    """Whether a run walking the directories `walked` (`Job.walked`) walks the whole project of a file (not a
    symbolic link) in the absolute `directory`, whose `project-root` setting is `project_root`: what
    `importers_state_of` answers `WALKED` for (the project root from `_root_of_directory`, as there)."""
    from spmdfix.runner.job import walks_root

    if not walked:
        return False
    root = str(Path(project_root).resolve()) if project_root is not None else _root_of_directory(directory)
    return walks_root(walked, root)
