"""What happened to one file of a run: one of five results, as LibCST's `TransformResult` is a union.

- `Checked`: read and analysed (or cleared by the prefilter), nothing to write; its findings, if any.
- `Fixed`: a fix (or a noqa comment) changed the text: `new_text` is what to write.
- `Skipped`: deliberately not analysed (generated, over the size limit, not a Python notebook): `reason`.
- `Unreadable`: the file could not be read or decoded (SPMD901): `reason`.
- `Failed`: an internal error (its traceback in `error`); the findings a check still gave, if any.

The runner (`spmdfix.runner`) gives one per file, the results cache keeps the `Checked` and `Skipped` ones,
and the CLI reports them; each matches on the result's type. Every result has the file's `path`,
`display` (the path as reports show it) and `stamp` (`stamps.FileStamp` when the job asked for it: what
the results cache keys it by), and answers the questions every report asks of any file (`FileResult`:
its findings, whether it was parsed, how many findings were suppressed, ...) with nothing for a file that
was not analysed. All are plain picklable values: they cross from worker processes and into the cache.

Values, changed only by copying (`dataclasses.replace`), but not `frozen`: a frozen dataclass generates
three more methods when its module is imported (2.4 M instructions each on the serial start of every run,
callgrind) and sets each field through `object.__setattr__` (a `Checked` of a file with nothing found took
1.6 microseconds to build instead of 0.23, and a cold run's main process builds one for each of the 3,330
files of the benchmark corpus). Equality is kept: tests compare results.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.analysis.project_answers import HOLDING_KEY, IMPORTERS_OF_KEY  # noqa: F401 - re-exported

if TYPE_CHECKING:
    from spmdfix.files import SourceFile
    from spmdfix.model import Edit, Finding, Fix, Unfollowed
    from spmdfix.notebook import CellIndex
    from spmdfix.stamps import FileStamp


class Mode(enum.Enum):
    """What a job does with its file: report findings, apply the chosen fixes, or add noqa comments."""

    CHECK = "check"
    FIX = "fix"
    ADD_NOQA = "add-noqa"


# In `Checked.depends`: the project root the analysis searched for modules (a marker file added or removed
# moves it), checked by the results cache against where `cache_keys.project_root_of` finds it now.
PROJECT_ROOT_KEY = "<project root>"
# In `Checked.depends`: the state of the project's import graph that decided which modules import the file
# (`project_graph.ProjectGraph.state`; a partial run analysed them, `spmdfix.reaching`), checked by the
# results cache against the graph now (`cache_keys.importers_state_of`).
IMPORTERS_KEY = "<importers>"
# Its values: the run walked the file's whole project (no partial run: every importer is a file of the run,
# `runner.job.walks_project`), or a partial run, followed by the import graph's state for the file.
WALKED = "walked"
PARTIAL = "partial:"
# In `Checked.depends`, followed by a module's absolute path or a word: who imports that module, which modules
# hold the word (`IMPORTERS_OF_KEY`, `HOLDING_KEY`, with the digests of `analysis.project_answers`), checked by
# the results cache against the project now (`cache_keys.importers_of_state`, `holding_state`).


class FileResult:
    """The base of every per-file result, with what a report asks of any file: a result that was not
    analysed (skipped, unreadable) or holds none of it answers with nothing.

    findings: the findings reported (after suppression and rule selection; in fix mode those left). parsed:
    the text passed the prefilter. suppressed: how many findings `# noqa` or the rule selection held back.
    unfollowed: the places on the way from the file's spmd vmaps into code of the project that the analysis
    could not follow (`pipeline.Checked.unfollowed`). text: the analysed text the findings refer to (a
    notebook's virtual module); cells: for a notebook, the map from rows of `text` to cells. edits: every
    fix's text edits by fix key, when the job asked for them (JSON-like reports). suppressed_across: the
    suppressed findings (counted in `suppressed`) that name a place in another module (a collision whose vmap
    and spec lie in two files): both files' results may count one, and a run counts it once
    (`reaching.reported_once`)."""

    __slots__ = ()
    path: Path
    display: str
    stamp: FileStamp | None
    findings: tuple[Finding, ...] = ()
    parsed: bool = False
    suppressed: int = 0
    unfollowed: tuple[Unfollowed, ...] = ()
    text: str = ""
    cells: CellIndex | None = None
    edits: dict[str, tuple[Edit, ...] | str] | None = None
    suppressed_across: tuple[Finding, ...] = ()


@dataclass(slots=True, repr=False)
class Checked(FileResult):
    """A file read and checked, with nothing to write (in fix mode: no fix applied).

    source: the file as read, kept when there is something to report of it (findings, errors), else None
    (smaller results). depends: (absolute path, SHA-256, or None for a file looked for and absent) of each
    other module the analysis may have read, the project root (`PROJECT_ROOT_KEY`), and for a module a
    partial run checked (`spmdfix.reaching`) each importer analysed and the import graph's state
    (`IMPORTERS_KEY`; `WALKED` when the run walked the whole project): the results cache checks them before
    serving the result again, and `cross_module_fixes` analyses the file again when a fix
    of the run changed one of them. In fix and add-noqa mode: errors (a fix that could not be applied, an
    internal error while writing the text), noqa_skipped (rows no noqa comment could be added to),
    found_before (the number of findings reported on the file as read)."""

    path: Path
    display: str
    source: SourceFile | None = None
    findings: tuple[Finding, ...] = ()
    text: str = ""
    cells: CellIndex | None = None
    parsed: bool = False
    suppressed: int = 0
    edits: dict[str, tuple[Edit, ...] | str] | None = None
    depends: tuple[tuple[str, str | None], ...] = ()
    unfollowed: tuple[Unfollowed, ...] = ()
    errors: tuple[str, ...] = ()
    noqa_skipped: tuple[int, ...] = ()
    found_before: int = 0
    stamp: FileStamp | None = None
    suppressed_across: tuple[Finding, ...] = ()

    def rewritten(self, new_text: str, findings: tuple[Finding, ...], applied: tuple[Fix, ...]) -> Fixed:
        """This file as a fix of another module's job changed it (`cross_module_fixes`): `new_text` to write,
        the `findings` left and the fixes `applied` to it. Raises ValueError without `source` (the file as read,
        which a write replaces)."""
        if self.source is None:
            raise ValueError(f"{self.display}: no source kept to rewrite")
        return Fixed(
            self.path,
            self.display,
            self.source,
            new_text,
            findings,
            applied,
            self.errors,
            text=new_text,
            cells=self.cells,
            parsed=self.parsed,
            suppressed=self.suppressed,
            noqa_skipped=self.noqa_skipped,
            found_before=self.found_before,
            depends=self.depends,
            unfollowed=self.unfollowed,
            stamp=self.stamp,
        )


@dataclass(slots=True, repr=False)
class Fixed(FileResult):
    """A file whose text a fix (or, adding noqa comments, a comment) changed: `new_text` is the file's new
    content (a notebook's JSON), to write over `source` (the file as read).

    findings: those left on the new text; applied: the fixes applied; errors and notes: what to say about the
    file (a fix that could not be applied, a notebook's layout normalised); text: the new analysed text;
    noqa_added / noqa_skipped: the rows a noqa comment was added to / could not be; found_before: the
    number of findings reported on the file as read (what stays when `new_text` cannot be written);
    depends: as `Checked.depends`."""

    path: Path
    display: str
    source: SourceFile
    new_text: str
    findings: tuple[Finding, ...] = ()
    applied: tuple[Fix, ...] = ()
    errors: tuple[str, ...] = ()
    text: str = ""
    cells: CellIndex | None = None
    parsed: bool = False
    suppressed: int = 0
    noqa_added: tuple[int, ...] = ()
    noqa_skipped: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    found_before: int = 0
    depends: tuple[tuple[str, str | None], ...] = ()
    unfollowed: tuple[Unfollowed, ...] = ()
    stamp: FileStamp | None = None
    suppressed_across: tuple[Finding, ...] = ()

    def rewritten(self, new_text: str, findings: tuple[Finding, ...], applied: tuple[Fix, ...]) -> Fixed:
        """This result with a fix of another module's job applied too (as `Checked.rewritten`): `applied`
        adds to the fixes already applied."""
        return replace(self, new_text=new_text, text=new_text, findings=findings, applied=self.applied + applied)


@dataclass(slots=True, repr=False)
class _NotAnalysed(FileResult):
    """A file that was not analysed, and why (`reason`, a sentence a report shows)."""

    path: Path
    display: str
    reason: str
    stamp: FileStamp | None = None


class Skipped(_NotAnalysed):
    """A file deliberately not analysed: generated (`@generated` in its first lines), over the size limit, a
    notebook that is not Python. `reason` says which (reports say it, but for a generated file)."""

    __slots__ = ()


@dataclass(slots=True, repr=False)
class Unreadable(_NotAnalysed):
    """A file that could not be read or decoded (reported as SPMD901 when that rule is enabled): `reason`
    says why; `position`: the 1-based line and column of the first byte that does not decode, where the
    finding is located (`files.FileError.position`), else None (1:1, the file as a whole)."""

    position: tuple[int, int] | None = None

    @property
    def where(self) -> tuple[int, int]:
        """The (line, column) SPMD901 is reported at."""
        return self.position or (1, 1)


@dataclass(slots=True, repr=False)
class Failed(FileResult):
    """An internal error while running the file (a bug in the analysis or a fix, a worker process that died):
    `error` holds the traceback or what happened. In fix and add-noqa mode, `findings` are those a check of
    the file still gave (they remain, and the summary counts them), `source` the file as read and `parsed`
    whether there were any."""

    path: Path
    display: str
    error: str
    source: SourceFile | None = None
    findings: tuple[Finding, ...] = ()
    parsed: bool = False
    stamp: FileStamp | None = None
