"""`check --add-noqa`: what a directive added for the run's findings also does to the findings of vmaps the run
did not ask about.

A `# noqa` directive holds every finding of its codes on its line, whichever vmap reaches it: a spec in
`model.py` reached by a notebook's vmap and by `train.py`'s gets one line, one directive. Added for the
notebook's findings (`check --add-noqa explore.ipynb`), it also hides `train.py`'s there, and takes from
`train.py`'s other findings every fix it shares with them (`choice.without_blocked_fixes`: a fix that would
change a suppressed finding is not applied), often the only safe one (newuser11's trial, finding 7). This module
finds those findings when the directives are added, so that the command can say so, and how to hide only the
run's findings (`per-file-ignores` of the vmap's file, which leaves the other vmaps' findings and fixes alone).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spmdfix.choice import without_blocked_fixes
from spmdfix.files import text_of
from spmdfix.model import Finding
from spmdfix.positions import LineIndex
from spmdfix.results import Checked, FileResult, Fixed
from spmdfix.runner import Job, display_path

# A finding as the directive sees it, whichever analysis gave it: (code, absolute path of the module it lies
# in, its row there, absolute path of the module holding its vmap's `spmd_axis_name`).
Key = tuple[str, str, int, str]


@dataclass(frozen=True)
class OtherVmap:
    """The findings of one vmap outside the run that new directives in `module` touch: `hidden`, its findings
    they newly suppress (code, row); `lost`, the fixes its findings still reported there no longer have
    (transform names, in order); `vmap_row`, the row of its `spmd_axis_name` in `vmap_module` (0: not
    known)."""

    module: str
    vmap_module: str
    vmap_row: int
    hidden: tuple[tuple[str, int], ...]
    lost: tuple[str, ...]
    vmap_cell: int = 0  # in a notebook, the cell of `vmap_row` (then counted in the cell)


def run_keys(outcomes: Sequence[FileResult]) -> set[Key]:
    """The keys of every finding the run's results hold (the findings the directives are added for)."""
    keys: set[Key] = set()
    texts: dict[str, str | None] = {}
    for o in outcomes:
        if not isinstance(o, (Checked, Fixed)):
            continue
        own = str(o.path.resolve())
        keys |= finding_keys(o.findings, own, o.text, texts, notebook=o.cells is not None)
    return keys


def finding_keys(
    findings: Iterable[Finding], own: str, own_text: str, texts: dict[str, str | None], notebook: bool = False
) -> set[Key]:
    """The keys of `findings`, as the analysis of the module at `own` (whose text is `own_text`) gives them;
    `texts` keeps the texts of the other modules read (absent ones are read from disk: an editor passes its
    buffers); `notebook`: `own` is a notebook (its own lines are left out: no other module's vmap reaches
    them). The language server's "Suppress on this line" asks them of a document's findings (`lsp.actions`)."""
    keys: set[Key] = set()
    for f in findings:
        where = f.span.path or own
        if where == own and notebook:
            continue
        text = own_text if where == own else texts.setdefault(where, text_of(where))
        if text is None:
            continue
        keys.add((f.code, where, LineIndex(text).row_col(f.span.start)[0], _vmap_module(f, own)))
    return keys


def _vmap_module(finding: Finding, analysed: str) -> str:
    """The absolute path of the module holding the `spmd_axis_name` of `finding`'s vmap, `finding` as the
    analysis of the module at `analysed` gives it (its paths "" there). The chain's first place is the vmap's
    (`noqa.vmap_place`, which names it when it lies in another module than the finding)."""
    from spmdfix.noqa import vmap_place

    place = vmap_place(finding)
    if place is not None:
        return place.path or analysed
    return finding.span.path or analysed


def other_vmaps(module: str, old: str, new: str, rows: Iterable[int], job: Job, intended: set[Key]) -> list[OtherVmap]:
    """The vmaps of modules importing `module` (absolute path) whose findings there the directives that turn
    its text `old` into `new` (added on `rows`) newly suppress, though the run did not find them (`intended`,
    `run_keys`), with the fixes their findings there lose. The importers are analysed as a partial run of
    `module` analyses them (`reaching.reached`, with the settings of `job`, a file of the run that found the
    findings), and so are the notebooks importing it (`_notebooks_findings`). Never raises: an analysis that fails says
    nothing (the directives stay what they are)."""
    rows = set(rows)
    try:
        from spmdfix import pipeline
        from spmdfix.api import project_index
        from spmdfix.reaching import reached

        index = project_index(module, job.project_root)
        # (the notebooks importing it: from the judgement's listing, `_notebooks_findings`, excluded ones too,
        # each finding with its fixes; a partial run gives them without, `reaching.notebook_importer_alone`)
        found = [f for f in reached(module, old, index, job.settings.options).findings if not _from_notebook(f, module)]
        found += _notebooks_findings(module, index, job)
    except Exception:  # noqa: BLE001 - a warning the command may give, never a reason to fail it
        return []
    lines = LineIndex(old)
    by_vmap: dict[str, list[Finding]] = {}
    for f in found:
        by_vmap.setdefault(_vmap_module(f, module), []).append(f)
    out = []
    for vmap_module, findings in sorted(by_vmap.items()):
        own = [f for f in findings if (f.code, module, lines.row_col(f.span.start)[0], vmap_module) not in intended]
        if not own:
            continue
        before, held_before = _selected(pipeline, old, own, job)
        after, held_after = _selected(pipeline, new, own, job)
        hidden = [f for f in held_after if f not in held_before and lines.row_col(f.span.start)[0] in rows]
        if not hidden:
            continue
        had = {_identity(f): [x.transform for x in f.fixes] for f in before}
        lost: list[str] = []
        for f in after:
            kept = {x.transform for x in f.fixes}
            for t in had.get(_identity(f), ()):
                if t not in kept and str(t) not in lost:
                    lost.append(str(t))
        place = next((p for f in findings if (p := _place(f)) is not None), None)
        vmap_row, vmap_cell = vmap_row_cell(vmap_module, place)
        out.append(OtherVmap(
            module,
            vmap_module,
            vmap_row,
            tuple(sorted({(f.code, lines.row_col(f.span.start)[0]) for f in hidden}, key=lambda x: (x[1], x[0]))),
            tuple(lost),
            vmap_cell,
        ))
    return out


def _from_notebook(finding: Finding, module: str) -> bool:
    """Whether `finding` (seen from `module`) comes from a notebook's vmap."""
    return _vmap_module(finding, module).endswith(".ipynb")


def vmap_row_cell(vmap_module: str, place: int | None) -> tuple[int, int]:
    """(row, cell) of the offset `place` in the module at `vmap_module`: the row in the file (cell 0), or in a
    notebook the row in its cell (counted from 1) and the cell; (0, 0) when not known."""
    if place is None:
        return 0, 0
    if vmap_module.endswith(".ipynb"):
        from spmdfix.notebook import cell_index
        from spmdfix.project_files import read_notebook

        read = read_notebook(vmap_module)
        if read is None:
            return 0, 0
        cell, row = cell_index(read[0]).locate(LineIndex(read[0]).row_col(place)[0])
        return row, cell
    vmap_text = text_of(vmap_module)
    return (LineIndex(vmap_text).row_col(place)[0], 0) if vmap_text is not None else (0, 0)


def _notebooks_findings(module: str, index, job: Job) -> list[Finding]:
    """The findings the notebooks of the project that import `module` (directly or through its modules: the
    judgement's import graph, `project_graph.graph_of(judged=True)`, which lists notebooks) place in it, seen
    from it (`model.reframed`). A partial run analyses no notebook (nothing imports one); a directive on a line
    of `module` holds their findings there too (newuser12: hidden with no warning)."""
    from spmdfix.api import analyse_source
    from spmdfix.model import reframed
    from spmdfix.project_files import read_notebook
    from spmdfix.project_graph import graph_of

    graph = graph_of(index.root, judged=True)
    out: list[Finding] = []
    for path in graph.reaching(module):
        if not path.endswith(".ipynb"):
            continue
        read = read_notebook(path)
        if read is None:
            continue
        result = analyse_source(read[0], job.settings.options, path=path, index=index)
        out += [reframed(f, path, module) for f in result.findings if f.span.path == module]
    return out


def _selected(pipeline, text: str, findings: list[Finding], job: Job) -> tuple[list[Finding], list[Finding]]:
    """(reported, suppressed) of `findings` under the comments of `text`, the reported ones without the fixes a
    suppressed one blocks, as `check` of the module reports them."""
    options = job.settings.options
    reported, suppressed = pipeline.select(text, findings, job.settings.enabled, options.unfixable)
    return without_blocked_fixes(reported, suppressed), suppressed


def _identity(f: Finding) -> tuple:
    """A finding whatever fixes the selection left it."""
    return (f.code, f.span, f.message)


def _place(f: Finding) -> int | None:
    """The offset of the `spmd_axis_name` of `f`'s vmap in its module, when that is another than `f`'s."""
    from spmdfix.noqa import vmap_place

    place = vmap_place(f)
    return place.start if place is not None else None


def say(
    other: OtherVmap,
    run_files: Sequence[str],
    codes: dict[str, set[str]],
    unchecked: str = "which this run did not check",
    cwd: str | None = None,
) -> str:
    """The warning for `other`: which findings of which vmap the directives also hold, the fixes they take
    away, and how to hide only the findings of the run's files (`run_files`, displays; `codes`: display ->
    the codes of its findings that got a directive). `unchecked` says why the vmap was not in view (the
    language server: not among the document's diagnostics); `cwd`: the directory paths are named from (the
    working directory when None; the language server's: the project root)."""
    shown = display_path(Path(other.module), cwd)
    rows = sorted({row for _, row in other.hidden})
    hidden = ", ".join(f"{code} (line {row})" for code, row in other.hidden)
    cell = f":cell {other.vmap_cell}" if other.vmap_cell else ""
    vmap = display_path(Path(other.vmap_module), cwd) + (f"{cell}:{other.vmap_row}" if other.vmap_row else "")
    text = (
        f"{shown}:{','.join(map(str, rows))}: warning: the noqa directive{'s' if len(rows) > 1 else ''} also "
        f"suppress{'' if len(rows) > 1 else 'es'} {hidden} of the vmap at {vmap}, {unchecked}"
    )
    if other.lost:
        text += (
            f"; its findings left in {shown} lose {', '.join(other.lost)} (a fix that would also change a "
            "suppressed finding is not applied)"
        )
    entries = ", ".join(
        f'"{f}" = [{", ".join(chr(34) + c + chr(34) for c in sorted(codes.get(f, ())))}]' for f in run_files
    )
    return text + (
        f". To hide only the findings of {', '.join(run_files)}, remove the directive{'s' if len(rows) > 1 else ''} "
        f"and add `per-file-ignores = {{ {entries} }}` under `[tool.spmdfix]` instead (an entry for the file "
        "holding a vmap removes that vmap's findings wherever they lie, and leaves the other vmaps' findings and "
        "fixes)"
    )
