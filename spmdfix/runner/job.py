"""What the runner is asked to do with one file (`Job`), and how reports name the file (`display_path`)."""

from __future__ import annotations

import os
from pathlib import Path

from spmdfix import file_settings, rules
from spmdfix.discovery import is_normal
from spmdfix.files import MAX_BYTES
from spmdfix.model import Options
from spmdfix.perf import frozen
from spmdfix.results import Mode


@frozen(slots=True)
class Job:
    """What to do with one file. mode: check, fix or add noqa comments (`Mode`); enabled: the rule codes
    reported.

    want_edits: also build every fix's text edits (for JSON-like reports). max_bytes: larger files are
    skipped. include_generated: do not skip files marked `@generated`. stamp: record the file's stamp
    (stat and digest of the bytes read) in the outcome, for the results cache (`spmdfix.cache`). defer:
    stop before the analysis of a text that passes the prefilter (a `Deferred` result, `cost` its length),
    so that `run_streamed` can schedule the analyses largest first. kept: the file's text passed the
    prefilter in such a first pass: checking it analyses the text without asking the prefilter again (on
    the largest modules of a tree its scans cost a tenth of their analysis; a file changed in between is
    analysed all the same, which only costs time). walked: see the field.
    """

    path: Path
    display: str
    options: Options
    mode: Mode = Mode.CHECK
    enabled: frozenset[str] = frozenset(rules.RULES)
    want_edits: bool = False
    include_generated: bool = False
    max_bytes: int = MAX_BYTES
    stamp: bool = False
    project_root: Path | None = None  # where the cross-module analysis looks for modules (found when None)
    defer: bool = False
    kept: bool = False
    # The directories the run walks whole (absolute, real): a file whose project root lies in one of them has
    # every module of its project in the run, whose own results report what their vmaps place in it, so
    # its check is not a partial run (`spmdfix.reaching`): no importer is analysed for it.
    walked: tuple[str, ...] = ()

    @property
    def settings(self) -> file_settings.FileSettings:
        """The file's settings, as the per-file entry point (`spmdfix.pipeline`) takes them."""
        return file_settings.FileSettings(self.options, self.enabled, self.project_root)


def display_path(path: Path, cwd: str | None = None) -> str:
    """The path as reports show it: relative to the working directory when below it, with `/`. cwd: the
    working directory (`os.getcwd()`), when the caller knows it (a run asks for every file's)."""
    if not path.is_absolute():
        shown = os.path.normpath(path)  # what relpath gives for a relative path, without two abspath calls
        if not shown.startswith(".."):
            return shown.replace(os.sep, "/")
    text = str(path)
    cwd = cwd or os.getcwd()
    below = cwd if cwd.endswith(os.sep) else cwd + os.sep
    if is_normal(text) and text != cwd:
        # relpath's answer without its two abspath calls (most of a warm run's cost per file): the path
        # below the working directory, or (a path elsewhere: relpath would start with "..") as it is
        shown = text[len(below) :] if text.startswith(below) else text
        return shown.replace(os.sep, "/")
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = text
    shown = text if rel.startswith("..") else rel
    return shown.replace(os.sep, "/")


def walks_project(job: Job, root: str) -> bool:
    """Whether the run of `job` walks the whole project at the real path `root` (`Job.walked`): its check is
    then no partial run (`spmdfix.reaching`)."""
    return walks_root(job.walked, root)


def walks_root(walked: tuple[str, ...], root: str) -> bool:
    """Whether the real path `root` is one of the directories `walked` (`Job.walked`) or lies below one."""
    return any(root == top or root.startswith(top.rstrip(os.sep) + os.sep) for top in walked)
