"""One `check` / `fix` invocation: the settings its options resolve, the files it runs on, their outcomes.

`Run` turns the common options into settings (`spmdfix.config.Resolver`), discovers the files
(`spmdfix.discovery`) and runs one `Job` per file (`spmdfix.runner`, in worker processes with `--jobs`),
returning the outcomes in the order reports show them. The options themselves are `cli.options`.
"""

from __future__ import annotations

import functools
import itertools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from spmdfix import dir_entries, file_settings
from spmdfix.cli import terminal
from spmdfix.cli.options import MIB
from spmdfix.config import Resolver
from spmdfix.discovery import excluded_as_given, iter_sources
from spmdfix.files import FileError, decode
from spmdfix.globs import glob_matcher
from spmdfix.overrides import Overrides, config_options, per_file_ignores_option, split_codes
from spmdfix.results import FileResult, Mode, Skipped, Unreadable
from spmdfix.runner import Job, display_path
from spmdfix.settings import ConfigError
from spmdfix.settings_keys import render_settings

if TYPE_CHECKING:
    from spmdfix.cache import Cache, CachedRun, PlainCounts
    from spmdfix.discovery import Lane, ListingMemo

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
PROGRESS_MIN_FILES = 50
# What the warning of a run that found no file adds to ruff's words: what is looked for, and what skips files.
NO_FILES_HINT = "*.py, *.pyi and *.ipynb are checked; the excludes, .gitignore and @generated marks skip files"


class ConfigProblem(click.ClickException):
    """A configuration error: printed as `Error: <file>: ...`, exit code 2."""

    exit_code = EXIT_ERROR


class Run:
    """The settings and discovery of one `check` / `fix` invocation, from its common options."""

    def __init__(self, kw: dict) -> None:
        self.kw = kw
        # (`.get`: the options added for issue 24 may be absent where a caller builds `kw` itself)
        config_file, inline = config_options(kw.get("config_options", ()))
        overrides = Overrides(
            new_axis=kw["new_axis"],
            select=split_codes(kw["select"]) or None,
            ignore=split_codes(kw["ignore"]) or None,
            exclude=split_codes(kw["exclude"]) or None,
            extend_exclude=split_codes(kw["extend_exclude"]),
            unsafe_fixes=kw["unsafe_fixes"],
            target_jax_version=kw["target_jax_version"],
            strategy=kw.get("strategy"),
            project_root=str(kw["project_root"]) if kw.get("project_root") is not None else None,
            extend_select=split_codes(kw.get("extend_select", ())),
            extend_ignore=split_codes(kw.get("extend_ignore", ())),
            per_file_ignores=per_file_ignores_option(kw["per_file_ignores"]) if kw.get("per_file_ignores") else None,
            extend_per_file_ignores=per_file_ignores_option(kw.get("extend_per_file_ignores", ())),
            fixable=split_codes(kw.get("fixable", ())) or None,
            extend_fixable=split_codes(kw.get("extend_fixable", ())),
            unfixable=split_codes(kw.get("unfixable", ())),
            docs_url=kw.get("docs_url"),
            inline=inline,
        )
        self.resolver = Resolver(overrides, config_file)
        self.paths: tuple[Path, ...] = kw["paths"]
        self._settings: dict[str, file_settings.FileSettings] = {}  # `file_settings.resolve_shared`'s memo
        self._exclude_keys: dict[int, tuple[object, tuple[str, ...]]] = {}  # `exclude_key`'s memo
        self._excluders: dict[str, Callable[..., bool]] = {}  # `excluded`'s, by absolute directory
        self.cwd = os.getcwd()  # reports show paths relative to it (`display_path`)
        self.unlisted: list[str] = []  # directories the walk could not list, said on stderr after the run
        # Files the results cache served without a job or an outcome (`_plain_lane`): the run's report
        # counts them in its closing summary, and shows nothing else of them.
        self.served: PlainCounts | None = None
        self.stdin = self.paths == (Path("-"),)
        self._said_empty = False  # (the warning that no file was found: once a run, `outcomes`)
        self._stdin_raw: bytes | None = None
        if not self.paths:
            self.paths = (Path("."),)  # as ruff's: no PATH checks the working directory
        # A file named on the command line is checked even when marked @generated, as an excluded one is,
        # unless --force-exclude (a pre-commit hook names every staged file); a walk skips generated files.
        self._named = frozenset(self.paths) if not kw["force_exclude"] else frozenset()
        # The directories walked whole (`Job.walked`): a run over a project's root is no partial run of it.
        self._walked = tuple(sorted({os.path.realpath(p) for p in self.paths if not self.stdin and p.is_dir()}))
        self.silent: bool = kw["silent"]
        self.quiet: bool = kw["quiet"] or self.silent
        if Path("-") in self.paths and not self.stdin:
            raise click.UsageError("`-` (stdin) cannot be mixed with other paths")
        if kw["stdin_filename"] and not self.stdin:
            raise click.UsageError("--stdin-filename needs PATH `-`")

    @functools.cached_property
    def docs(self) -> str | None:
        """The base of the rule links this run's reports emit (`links.docs_base` of the `docs-url` setting
        of the first PATH, as `--show-settings` shows its settings: one base for a whole report)."""
        from spmdfix.links import docs_base

        target = self.stdin_path() if self.stdin else self.paths[0]
        return docs_base(self.resolver.for_path(target).docs_url)

    def say(self, message: str) -> None:
        """A summary or progress message on stderr, unless `--quiet` or `--silent`."""
        if not self.quiet:
            click.echo(message, err=True)

    def warn(self, message: str) -> None:
        """A message about one file (skipped, not written, ...) on stderr, unless `--silent`."""
        if not self.silent:
            click.echo(message, err=True)

    def excluded(self, absolute: str, is_dir: bool) -> bool:
        """Whether the settings of the absolute path's directory exclude it (discovery's `excluded`,
        asked for every entry of a walk: each directory's matcher is looked up once, `_excluders`)."""
        if not os.path.isabs(absolute):
            return self.resolver.for_dir(os.path.dirname(absolute)).excludes(absolute, is_dir)
        return self.excluded_in(os.path.dirname(absolute))(absolute, is_dir)

    def excluded_in(self, directory: str) -> Callable[..., bool]:
        """`excluded` for the entries of one absolute directory, as a function of (absolute path, is_dir,
        name): discovery asks for it once per directory it walks (`discovery.iter_sources`' `excluded_in`),
        where `excluded` finds the directory and its matcher again for every entry."""
        matches = self._excluders.get(directory)
        if matches is None:
            settings = self.resolver.for_dir(directory)
            matches = self._excluders[directory] = glob_matcher(settings.exclude + settings.extend_exclude)
        return matches

    def exclude_key(self, directory: str) -> tuple[str, ...]:
        """Everything `excluded` decides the entries of an absolute directory by (its exclude patterns):
        the key under which the results cache keeps the directory's listing (`discovery.ListingMemo`)."""
        settings = self.resolver.for_dir(directory)
        found = self._exclude_keys.get(id(settings))
        if found is None:
            found = self._exclude_keys[id(settings)] = (settings, settings.exclude + settings.extend_exclude)
        return found[1]

    def sources(self, memo: ListingMemo | None = None, lane: Lane | None = None) -> Iterator[Path]:
        """The files to run on, as the walk finds them (`discovery.iter_sources`; `memo`: the listings of
        earlier walks; `lane`: takes over the files it answers True for). Raises `click.UsageError` for a
        path that does not exist."""
        try:
            return iter_sources(
                self.paths,
                self.excluded,
                self.kw["respect_gitignore"],
                self.kw["force_exclude"],
                self.unlisted,
                memo,
                lane,
                self.excluded_in,
            )
        except FileError as err:
            raise click.UsageError(str(err)) from err

    def job(
        self,
        path: Path,
        mode: Mode,
        want_edits: bool = False,
        display: str | None = None,
    ) -> Job:
        """The job of one file, with the options and rule codes its settings give."""
        settings = file_settings.resolve_shared(self.resolver, path, self._settings)
        return Job(
            path,
            display or display_path(path, self.cwd),
            settings.options,
            mode,
            settings.enabled,
            want_edits,
            self.kw["include_generated"] or path in self._named,
            int(self.kw["max_file_size"] * MIB),
            project_root=settings.project_root,
            walked=self._walked,
        )

    def show_settings(self) -> None:
        """Print the settings of the first path (or of the stdin file name)."""
        target = self.stdin_path() if self.stdin else (self.paths[0] if self.paths else Path("."))
        click.echo(render_settings(self.resolver.for_path(target), target), nl=False)

    def stdin_path(self) -> Path:
        """The path stdin stands for: `--stdin-filename`, else `-` in the working directory."""
        name = self.kw["stdin_filename"]
        return Path(name) if name else Path.cwd() / "-"

    def stdin_bytes(self) -> bytes:
        """What stdin holds (read once)."""
        if self._stdin_raw is None:
            self._stdin_raw = terminal.binary(sys.stdin).read()
        return self._stdin_raw

    def stdin_excluded(self) -> bool:
        """True when `--force-exclude` and the excludes match `--stdin-filename`."""
        return bool(
            self.kw["force_exclude"]
            and self.kw["stdin_filename"]
            and excluded_as_given(self.stdin_path(), self.excluded)
        )

    def outcomes(
        self, mode: Mode, want_edits: bool = False, every_file: bool = False
    ) -> tuple[list[Job], list[FileResult]]:
        """Jobs and their results, in path order; stdin is one job when PATH is `-`. Directories the walk
        could not list are said on stderr. every_file: each file found gets its job and result, also one the
        results cache would serve as plain (counted in `served` without either): `fix --report` pairs the
        check's results with the fix run's, file by file."""
        # (what the walk sees of each directory answers the settings', ignore files' and project roots'
        # lookups of this run: `dir_entries`)
        with dir_entries.noting():
            found = self._outcomes(mode, want_edits, every_file)
        for message in self.unlisted:
            self.warn(message)
        if not self.stdin and not found[0] and not (self.served and self.served.files) and not self._said_empty:
            # As ruff's: a mistyped directory, or one the excludes or .gitignore empty, would otherwise end
            # with "All checks passed!" and nothing else to tell that no file was looked at.
            self._said_empty = True
            self.say(f"warning: No Python files found under the given path(s) ({NO_FILES_HINT})")
        return found

    def _outcomes(self, mode: Mode, want_edits: bool, every_file: bool = False) -> tuple[list[Job], list[FileResult]]:
        if self.stdin:
            job = self.job(self.stdin_path(), mode, want_edits, self.kw["stdin_filename"] or "-")
            return [job], [_run_stdin(job, self.stdin_bytes())]
        cached = self.cached_run(mode)
        # The import scans of a partial run's graph are kept beside the results (`cache_graph`), read by this
        # process and by the workers it forks; a run without the cache keeps them in its own process only.
        # So are the words each file holds, the judgement's listings of the project and the answers about it
        # (a warm run checks again the answers a result rests on: `cache_graph.keep_project_stores`).
        from spmdfix.cache_graph import flush_project_stores, keep_project_stores

        keep_project_stores(cached.cache.directory if cached is not None else None)
        workers = self.kw["jobs"] or os.cpu_count() or 1
        memo = cached.cache.listing_memo(self.exclude_key) if cached is not None else None
        if cached is not None:
            self.resolver.tables = cached.cache.table_memo()
        lane = self._plain_lane(cached.cache, mode, want_edits) if cached is not None and not every_file else None
        found = (self.job(path, mode, want_edits) for path in self.sources(memo, lane))
        found = cached.misses(found, process_lifetime=True) if cached is not None else found
        if not terminal.stderr_is_tty():
            # No progress bar to size: files are read while discovery is still walking (`run_streamed`
            # chooses between this process and workers from the size of the tree and of its analyses).
            first = next(found, None)
            if first is None:
                # (nothing to run: a warm run the cache served whole does not load the runner's per-file path,
                # a fiftieth of its instructions)
                jobs, outcomes = [], []
            else:
                from spmdfix.runner import run_streamed

                jobs, outcomes = run_streamed(itertools.chain((first,), found), workers)
        else:
            from spmdfix.runner import run_jobs

            jobs = sorted(found, key=_shown_order)
            if len(jobs) > PROGRESS_MIN_FILES and not self.quiet:
                with click.progressbar(length=len(jobs), label="Scanning", file=sys.stderr) as bar:
                    outcomes = run_jobs(jobs, workers, bar.update)
            else:
                outcomes = run_jobs(jobs, workers)
        # (what this process read checking the cached results: `Cache.misses`)
        flush_project_stores()
        if cached is not None:
            return cached.finish(jobs, outcomes, _shown_order)
        order = sorted(range(len(jobs)), key=lambda i: _shown_order(jobs[i]))
        return [jobs[i] for i in order], [outcomes[i] for i in order]

    def _plain_lane(self, cache: Cache, mode: Mode, want_edits: bool) -> Lane:
        """The walk's lane (`discovery.iter_sources`) for a cached run: a file the cache serves as plain
        (`Cache.serve_plain`, under the settings its job would have) is counted in `served` instead of
        becoming a job and an outcome; any other file becomes a job as usual."""
        include_generated = self.kw["include_generated"]
        max_bytes = int(self.kw["max_file_size"] * MIB)
        resolver, memo, serve = self.resolver, self._settings, cache.serve_plain
        walked = self._walked
        # a directory whose files share their settings, their settings key and `project-root` setting
        last: list = ["", "", None]
        self.served = cache.plain

        def lane(path: str, absolute: str) -> bool:
            # A walk gives a directory's files one after the other: the settings key of the last one serves
            # the next when its directory's files share their settings (`resolve_shared` memoised them)
            directory = os.path.dirname(path)
            if directory == last[0]:
                return serve(absolute, last[1], walked, last[2])
            settings = file_settings.resolve_shared(resolver, path, memo)
            # (`settings_key_of` memoises the key by the identity of the settings' objects)
            options, enabled = settings.options, settings.enabled
            key = cache.settings_key_of(options, enabled, mode, want_edits, include_generated, max_bytes)
            shared = memo.get(directory) is settings
            last[:] = (directory, key, settings.project_root) if shared else ("", "", None)
            return serve(absolute, key, walked, settings.project_root)

        return lane

    def cached_run(self, mode: Mode) -> CachedRun | None:
        """The results cache's hooks for a `check` run (None with `--no-cache`, or for other modes)."""
        if mode is not Mode.CHECK or self.kw.get("no_cache", True):
            return None
        from spmdfix.cache import Cache, CachedRun
        from spmdfix.cache_keys import default_directory

        return CachedRun(Cache(self.kw.get("cache_dir") or default_directory()))


def _shown_order(job: Job) -> list[str]:
    """Reports go in the sorted order of the paths they show (as ruff's do), component by component."""
    return job.display.split("/")


def _run_stdin(job: Job, raw: bytes) -> FileResult:
    """`runner.run_file` for bytes read from stdin."""
    try:
        source = decode(job.path, raw)
    except FileError as err:
        return Unreadable(job.path, job.display, str(err), position=err.position)
    if len(raw) > job.max_bytes:
        return Skipped(job.path, job.display, "skipped: over the --max-file-size limit")
    from spmdfix.runner import run_source

    return run_source(job, source)


def guard_config(func: Callable) -> Callable:
    """Turn a `ConfigError` anywhere in a command into exit code 2 with its message."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ConfigError as err:
            raise ConfigProblem(str(err)) from err

    return wrapper
