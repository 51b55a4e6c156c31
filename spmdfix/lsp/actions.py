"""Code actions: a quick fix per fix, a quick fix adding `# noqa: CODE`, and `source.fixAll.spmdfix`;
and `codeAction/resolve`, which builds their edits on demand."""

from __future__ import annotations

import logging
import os
import traceback
from dataclasses import replace
from pathlib import Path
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst
from lsprotocol import types as lsp
from pygls import uris

from spmdfix import noqa, pipeline, rules
from spmdfix.lsp.data import (
    SOURCE,
    anchor,
    diagnostic,
    diagnostic_data,
    finding_from_json,
    fix_from_json,
    fix_to_json,
)
from spmdfix.lsp.documents import Document
from spmdfix.lsp.text import PositionConverter
from spmdfix.model import Applicability, Edit, Finding, Fix, FixId, Span
from spmdfix.positions import LineIndex

if TYPE_CHECKING:
    from spmdfix.lsp.server import SpmdfixServer

logger = logging.getLogger(__name__)

FIX_ALL_KIND = f"{lsp.CodeActionKind.SourceFixAll.value}.spmdfix"
DOES_NOT_PARSE = "spmdfix: the document does not parse; fix it first"


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """True when a request restricted to the kinds `only` asks for actions of `kind` (kinds are hierarchical)."""
    if not only:
        return True
    return any(kind == o or kind.startswith(f"{o}.") for o in only)


def fix_title(fix: Fix) -> str:
    suffix = " (unsafe)" if fix.applicability == Applicability.UNSAFE else ""
    return f"spmdfix: {fix.title}{suffix}"


def _findings_in_range(
    ls: SpmdfixServer,
    doc: Document,
    conv: PositionConverter,
    params: lsp.CodeActionParams,
) -> Iterator[tuple[lsp.Diagnostic, Finding]]:
    """The findings a code action request is about, each with the diagnostic to attach.

    When every spmdfix diagnostic of the request carries the document's current version, the findings are
    rebuilt from their `data` (no analysis). Otherwise the current text's findings overlapping the range.
    """
    # (an SPMD910 diagnostic, where the analysis stopped, has nothing to fix: not a finding)
    ours = [d for d in params.context.diagnostics if d.source == SOURCE and d.code != rules.UNFOLLOWED.code]
    if ours and all(isinstance(d.data, dict) and d.data.get("version") == doc.version for d in ours):
        for diag in ours:
            try:
                yield diag, finding_from_json(diag.data)  # type: ignore[arg-type]
            except (KeyError, TypeError, ValueError):
                ls.log(
                    lsp.MessageType.Warning,
                    "spmdfix: ignored a diagnostic with malformed data",
                )
        return
    wanted = conv.span(params.range)
    for finding in ls.findings(doc):
        # Verified: a tool diagnostic (SPMD900) has nothing to fix or suppress.
        if finding.code == rules.SYNTAX_ERROR.code or (span := anchor(finding)) is None:
            continue
        if span.start <= wanted.end and wanted.start <= span.end:
            yield diagnostic(finding, conv, doc.uri, doc.version, ls.docs(doc)), finding


def code_actions(ls: SpmdfixServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    """Quick fixes (one per fix, one `# noqa` per code and line) for the findings in the range, and
    `source.fixAll.spmdfix` when the document has a safe fix. Edits come in `codeAction/resolve` when the
    client can resolve them; otherwise they are built here, and fix-all only when asked for by kind."""
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    only = params.context.only
    conv = ls.converter(doc.source)
    settings = ls.settings(doc)
    fixes: dict[FixId, tuple[lsp.CodeAction, Fix]] = {}
    owners: dict[FixId, lsp.Diagnostic] = {}  # the diagnostic each fix action was made for (`_distinct_titles`)
    suppress: dict[tuple[int, str], lsp.CodeAction] = {}
    if _wants(only, lsp.CodeActionKind.QuickFix.value):
        for diag, finding in _findings_in_range(ls, doc, conv, params):
            preferred = settings.chosen(finding)  # what `spmdfix fix` applies with the file's settings
            for fix in finding.fixes:
                # (a fix that edits other modules too, the importer's vmap of a partial run, is offered as
                # `spmdfix check` offers it: its edit spans every file it changes, `_across`)
                is_preferred = preferred is not None and preferred.id == fix.id
                if fix.id in fixes:
                    # Findings that share a fix (SPMD001 and SPMD002 of one shard_map) share one action.
                    action = fixes[fix.id][0]
                    action.diagnostics = [*(action.diagnostics or []), diag]
                    action.is_preferred = bool(action.is_preferred) or is_preferred or None
                    continue
                action = lsp.CodeAction(
                    title=fix_title(fix),
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    is_preferred=is_preferred or None,
                    data={
                        "uri": doc.uri,
                        "version": doc.version,
                        "action": "fix",
                        "fix": fix_to_json(fix),
                    },
                )
                fixes[fix.id] = (action, fix)
                owners[fix.id] = diag
            here = _suppressed_here(finding, conv.span(diag.range))
            line = conv.lines.line_of(here.span.start) if here is not None else None
            if here is not None and (line, finding.code) not in suppress:
                suppress[(line, finding.code)] = lsp.CodeAction(
                    title=suppress_title(finding.code, _hidden_vmaps(ls, doc, conv, finding.code, line)),
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    data={
                        "uri": doc.uri,
                        "version": doc.version,
                        "action": "noqa",
                        "finding": diagnostic_data(here, doc.version)["finding"],
                        "vmap": _vmap_uri(doc, finding, diag),
                    },
                )
    _distinct_titles(fixes, owners, _root_of(doc, settings))
    if not ls.resolve_edits:
        if fixes:
            _build_edits(ls, doc, conv, list(fixes.values()))
        for key, action in list(suppress.items()):
            action.edit = _noqa_edit(ls, doc, finding_from_json(action.data))  # type: ignore[arg-type]
            if action.edit is None:
                del suppress[key]
    actions = [a for a, _ in fixes.values()] + list(suppress.values())
    fix_all_asked = bool(only) and _wants(only, FIX_ALL_KIND)
    if _wants(only, FIX_ALL_KIND) and (ls.resolve_edits or fix_all_asked) and _fixable_here(ls.checked(doc)):
        what = "fixable" if settings.options.unsafe_fixes else "safely fixable"
        fix_all = lsp.CodeAction(
            title=f"spmdfix: Fix all {what} problems",
            kind=FIX_ALL_KIND,
            data={"uri": doc.uri, "version": doc.version, "action": "fixAll"},
        )
        actions.append(fix_all if ls.resolve_edits else resolve_code_action(ls, fix_all))
    return actions


def _root_of(doc: Document, settings) -> str | None:
    """The project root the document's places are named from (as `spmdfix check` names them), or None."""
    if doc.path is None:
        return None
    from spmdfix import file_settings

    return str(file_settings.project_root_of(doc.path.resolve(), settings))


def _distinct_titles(
    fixes: dict[FixId, tuple[lsp.CodeAction, Fix]], owners: dict[FixId, lsp.Diagnostic], root: str | None
) -> None:
    """Name the vmap in the titles of fix actions that would otherwise read the same: two vmaps reaching one
    spec give one finding each at the spec, and each its own fixes with the same titles (newuser11: eight
    actions, each title twice, nothing to tell them apart). The vmap is the diagnostic's first related place
    (the `spmd_axis_name` given, or the vmap call), named by file and line."""
    by_title: dict[str, list[FixId]] = {}
    for fix_id, (action, _) in fixes.items():
        by_title.setdefault(action.title, []).append(fix_id)
    for title, ids in by_title.items():
        places = {fix_id: _vmap_place(owners[fix_id], root) for fix_id in ids}
        if len(ids) < 2 or len(set(places.values())) < 2:
            continue
        for fix_id, where in places.items():
            if where is not None:
                fixes[fix_id][0].title = f"{title} (the vmap at {where})"


def _vmap_place(diag: lsp.Diagnostic, root: str | None) -> str | None:
    """`pkg/train.py line 9`: where the diagnostic's vmap is (its first related place), its file named from the
    project `root` when it lies there, or None without one."""
    if not diag.related_information:
        return None
    location = diag.related_information[0].location
    path = uris.to_fs_path(location.uri) if location.uri.startswith("file:") else None
    name = location.uri if not path else os.path.relpath(path, root) if root and path.startswith(root + os.sep) else path
    return f"{name} line {location.range.start.line + 1}"


def _fixable_here(checked: pipeline.Checked) -> bool:
    """Whether fix-all has something to do: a finding whose fix `spmdfix fix` applies (one that edits other
    modules too: fix-all writes what `spmdfix fix FILE` writes, in every file, `_fix_all_edit`)."""
    return any(checked.chosen(f) is not None for f in checked.findings)


def _build_edits(
    ls: SpmdfixServer,
    doc: Document,
    conv: PositionConverter,
    pairs: list[tuple[lsp.CodeAction, Fix]],
) -> None:
    """Fill in the edits of fix actions made for the current text, with one libcst parse for all."""
    try:
        built = _fix_edits(ls, doc, [fix for _, fix in pairs])
    except cst.ParserSyntaxError:
        return
    except Exception:  # noqa: BLE001 - a failed fix must not fail the request
        ls.log(
            lsp.MessageType.Error,
            f"spmdfix: building fixes failed:\n{traceback.format_exc()}",
        )
        return
    for action, fix in pairs:
        edits = built.get(fix.key)
        if isinstance(edits, tuple):
            action.edit = _across(ls, doc, edits)
        elif edits is not None:
            action.disabled = lsp.CodeActionDisabled(reason=f"cannot apply: {edits}")


def _suppressed_here(finding: Finding, shown: Span) -> Finding | None:
    """The finding as a directive of this document suppresses it: itself, or, for a finding lying in another
    module, found from this document's vmap and shown (`shown`, `data.anchor`) at its `spmd_axis_name`, the
    finding placed there: a directive on the vmap's line suppresses it too (`noqa.vmap_place`). A finding
    rebuilt from a diagnostic's `data` has no related places: it is placed where it is shown, which for such
    a finding is that argument (the first related place, `rules.rule`'s chain). None when the related places
    say the vmap is not in this document."""
    if not finding.span.path:
        return finding
    if finding.related:
        vmap = noqa.vmap_place(finding)
        return replace(finding, span=vmap) if vmap is not None and not vmap.path else None
    return replace(finding, span=shown)


def _vmap_uri(doc: Document, finding: Finding, diag: lsp.Diagnostic) -> str:
    """The URI of the file holding the vmap of the finding a "Suppress" action is made for: the document for a
    finding shown at its vmap (located in another module), else the diagnostic's first related place (the
    `spmd_axis_name` given: `data.diagnostic`; a finding rebuilt from `data` has no related places)."""
    if finding.span.path or not diag.related_information:
        return doc.uri
    return diag.related_information[0].location.uri


def suppress_title(code: str, vmaps: Sequence[str]) -> str:
    """The title of "Suppress CODE on this line": when the directive would hide the findings of several vmaps
    (a spec reached by train.py's vmap and a notebook's, each a diagnostic of its own at the spec), it names
    them, as `spmdfix check --add-noqa` warns (`cli.noqa_others`): a directive holds every finding of its code
    on its line, whichever vmap reaches it."""
    title = f"spmdfix: Suppress {code} on this line"
    if len(vmaps) < 2:
        return title
    return f"{title} (hides the findings of {len(vmaps)} vmaps: {', '.join(vmaps)})"


def _hidden_vmaps(ls: SpmdfixServer, doc: Document, conv: PositionConverter, code: str, line: int) -> list[str]:
    """Where the vmap of each finding of `code` the document shows (`SpmdfixServer.findings`) that a directive
    on its 0-based `line` would suppress is (`_suppressed_here`), named as `_vmap_where` names it, sorted."""
    out: list[str] = []
    for finding in ls.findings(doc):
        shown = anchor(finding)
        if finding.code != code or shown is None:
            continue
        here = _suppressed_here(finding, shown)
        if here is None or here.span.path or conv.lines.line_of(here.span.start) != line:
            continue
        where = _vmap_where(ls, doc, conv, finding)
        if where not in out:
            out.append(where)
    return sorted(out)


def _vmap_where(ls: SpmdfixServer, doc: Document, conv: PositionConverter, finding: Finding) -> str:
    """Where `finding`'s vmap gives `spmd_axis_name` (its first related place, else the finding): `line N` in
    the document, `path:N` in another module (named from the project root), `path:cell C:N` in a notebook."""
    span = finding.related[0].span if finding.related else finding.span
    if not span.path:
        return f"line {conv.lines.line_of(span.start) + 1}"
    from spmdfix.cli.noqa_others import vmap_row_cell

    root = _root_of(doc, ls.settings(doc))
    name = os.path.relpath(span.path, root) if root and span.path.startswith(root + os.sep) else span.path
    row, cell = vmap_row_cell(span.path, span.start) if doc.path is not None else (0, 0)
    return f"{name}:cell {cell}:{row}" if cell else f"{name}:{row}" if row else name


def _warn_hidden_elsewhere(
    ls: SpmdfixServer, doc: Document, finding: Finding, new: str, rows: Sequence[int], vmap: str
) -> None:
    """Warn (`window/showMessage`) of each vmap whose findings the directive (turning the document's text into
    `new`, on `rows`) also suppresses though the document does not show them (a notebook the configuration
    excludes, whose vmap reaches the line), and the fixes their other findings lose: `spmdfix check
    --add-noqa`'s warning (`cli.noqa_others.other_vmaps`, `say`), the document's findings being the run's and
    `vmap` (the URI of the file holding the vmap of the finding the action is for) the file whose
    `per-file-ignores` entry hides only its findings. Never raises (a warning the action may give, never a
    reason to fail it)."""
    if doc.path is None or doc.path.suffix != ".py":
        return
    try:
        from spmdfix.cli import noqa_others
        from spmdfix.runner import Job, display_path

        settings = ls.settings(doc)
        own = str(doc.path.resolve())
        root = _root_of(doc, settings)
        job = Job(doc.path, display_path(doc.path, root), settings.options, enabled=settings.enabled, project_root=settings.project_root)
        texts = {path: ls.text_of(path) for path in {f.span.path for f in ls.findings(doc) if f.span.path}}
        intended = noqa_others.finding_keys(ls.findings(doc), own, doc.source, texts)
        others = noqa_others.other_vmaps(own, doc.source, new, rows, job, intended)
        holder = Path(uris.to_fs_path(vmap)) if vmap.startswith("file:") else doc.path
        shown = display_path(holder.resolve(), root)
        for other in others:
            ls.tell("spmdfix: " + noqa_others.say(
                other, [shown], {shown: {finding.code}}, "which the editor does not show in this document", root
            ))
    except Exception:  # noqa: BLE001 - see above
        ls.log(lsp.MessageType.Warning, f"spmdfix: the directive's other findings were not looked for:\n{traceback.format_exc()}")


def _noqa_edit(ls: SpmdfixServer, doc: Document, finding: Finding) -> lsp.WorkspaceEdit | None:
    """The edit adding `# noqa: CODE` to the finding's line, as `spmdfix check --add-noqa` does
    (`spmdfix.noqa.add_noqa`: codes merged into an existing directive, none after a line continuation or
    inside a multi-line string); None when no comment can go there or one already suppresses the code."""
    result = noqa.add_noqa(doc.source, [finding])
    if not result.added:
        return None
    # add_noqa changes that one line only: the edit is what differs inside it.
    conv = ls.converter(doc.source)
    line0 = conv.lines.line_of(finding.span.start)
    old = conv.lines.line_text(line0)
    new = LineIndex(result.text).line_text(line0)
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    at = conv.lines.line_start(line0)
    span = Span(at + prefix, at + len(old) - suffix)
    return workspace_edit(
        ls,
        doc,
        [lsp.TextEdit(range=conv.range(span), new_text=new[prefix : len(new) - suffix])],
    )


def workspace_edit(ls: SpmdfixServer, doc: Document, edits: list[lsp.TextEdit]) -> lsp.WorkspaceEdit:
    """Edits of one document, versioned when the client supports `documentChanges`."""
    if ls.document_changes:
        ident = lsp.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(text_document=ident, edits=edits)])
    return lsp.WorkspaceEdit(changes={doc.uri: edits})


def resolve_code_action(ls: SpmdfixServer, action: lsp.CodeAction) -> lsp.CodeAction:
    """Fill in the action's edit. Never raises; an action whose edit cannot be built comes back without one
    (and the client is told why with `window/showMessage`)."""
    data = action.data
    if action.edit is not None or not isinstance(data, dict):
        return action
    doc = ls.documents.get(str(data.get("uri")))
    if doc is None:
        return action
    try:
        if data.get("action") == "fix":
            action.edit = _fix_edit(ls, doc, data)
        elif data.get("action") == "fixAll":
            action.edit = _fix_all_edit(ls, doc)
        elif data.get("action") == "noqa":
            action.edit = _suppress_edit(ls, doc, data)
    except Exception:  # noqa: BLE001 - a failed fix must not fail the request loop
        ls.log(
            lsp.MessageType.Error,
            f"spmdfix: building `{action.title}` failed:\n{traceback.format_exc()}",
        )
    return action


def _fix_edit(ls: SpmdfixServer, doc: Document, data: dict[str, Any]) -> lsp.WorkspaceEdit | None:
    fix = fix_from_json(data["fix"])
    if data.get("version") != doc.version:
        if ls.checked(doc).syntax_error is not None:
            ls.tell(DOES_NOT_PARSE)
            return None
        # The fix's spans belong to an older text: take the same fix (transform and title) of the current one.
        current = _same_fix(ls.findings(doc), fix)
        if current is None:
            ls.tell("spmdfix: the document changed and this fix no longer applies")
            return None
        fix = current
    else:
        # The same text, but a file the fix was judged against (the finding's module, the modules of its chain,
        # a mesh's config module) may have changed on disk since the diagnostics were published, which the
        # current analysis (`checked`: its index is dropped when a file it read changed) has seen: the fix it
        # offers now, when it is the same one (key, title, safety), else none (breaker20: `fix` wrote a fix
        # judged against a model.py changed meanwhile).
        current = _judged_now(ls.findings(doc), fix)
        if current is None:
            ls.tell("spmdfix: a file this fix was judged against changed since it was offered; it no longer applies")
            return None
        fix = current
    try:
        built = _fix_edits(ls, doc, [fix])[fix.key]
    except cst.ParserSyntaxError:
        ls.tell(DOES_NOT_PARSE)
        return None
    if isinstance(built, str):
        ls.tell(f"spmdfix: cannot apply `{fix.title}`: {built}")
        return None
    return _across(ls, doc, built)


def _fix_edits(ls: SpmdfixServer, doc: Document, fixes: list[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """The text edits of each of `fixes` (by key) on the document's text; a fix that edits other modules too
    (`Span.path` of a node edit) is built on each module's text (`fix_engine.fix_edits_across`: the open
    document's unsaved text, else the file), its edits there carrying their path. With the document's project
    index, each fix's edits also remove the imported names it alone leaves unread (`fix_engine.with_unused_imports`,
    the step a report's fixes take: what `spmdfix fix` writes for that fix; newuser12). A string says why a
    fix's edits could not be built. Raises `libcst.ParserSyntaxError` when the document does not parse."""
    from spmdfix.fix_engine import fix_edits_across, with_unused_imports

    own = [f for f in fixes if not any(e.span.path for e in f.node_edits)]
    across = [f for f in fixes if any(e.span.path for e in f.node_edits)]
    out: dict[str, tuple[Edit, ...] | str] = dict(pipeline.fix_edits(doc.source, own)) if own else {}
    if across:
        out.update({str(k): v for k, v in fix_edits_across(doc.source, across, ls.text_of).items()})
    if doc.path is not None and doc.path.suffix != ".ipynb":
        index = ls.index(doc)
        out = with_unused_imports(out, doc.source, str(doc.path.resolve()), index, ls.text_of)
    return out


def _across(ls: SpmdfixServer, doc: Document, edits: Sequence[Edit]) -> lsp.WorkspaceEdit:
    """The workspace edit of text edits of the document (`Span.path` "") and of other modules (their path):
    one per document, in the positions of its text (an open document's buffer, else its file), versioned
    when the client supports `documentChanges` (an open document's version; None for a file not open)."""
    if not any(e.span.path for e in edits):
        conv = ls.converter(doc.source)
        return workspace_edit(ls, doc, [lsp.TextEdit(range=conv.range(e.span), new_text=e.content) for e in edits])
    by_path: dict[str, list[Edit]] = {}
    for edit in edits:
        by_path.setdefault(edit.span.path, []).append(edit)
    changes: dict[str, list[lsp.TextEdit]] = {}
    versions: dict[str, int | None] = {}
    for path in sorted(by_path):
        other = ls.document_of(path) if path else doc
        uri = other.uri if other is not None else Path(path).as_uri()
        conv = ls.converter(other.source if other is not None else ls.text_of(path) or "")
        changes[uri] = [lsp.TextEdit(range=conv.range(e.span), new_text=e.content) for e in by_path[path]]
        versions[uri] = other.version if other is not None else None
    if ls.document_changes:
        return lsp.WorkspaceEdit(
            document_changes=[
                lsp.TextDocumentEdit(
                    text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions[uri]),
                    edits=text_edits,
                )
                for uri, text_edits in changes.items()
            ]
        )
    return lsp.WorkspaceEdit(changes=changes)


def _suppress_edit(ls: SpmdfixServer, doc: Document, data: dict[str, Any]) -> lsp.WorkspaceEdit | None:
    finding = finding_from_json(data)
    if data.get("version") != doc.version:
        # The finding's span belongs to an older text: take the same finding (code and message) of the current one.
        same = [f for f in ls.findings(doc) if f.code == finding.code and f.message == finding.message]
        if len({f.span for f in same}) != 1:
            ls.tell(
                "spmdfix: the document changed and this finding is gone or ambiguous; ask again",
            )
            return None
        finding = same[0]
    edit = _noqa_edit(ls, doc, finding)
    if edit is None:
        ls.tell(
            f"spmdfix: no `# noqa: {finding.code}` added: the line is already suppressed, or a comment cannot go"
            " there (it ends inside a multi-line string or with a `\\` continuation)",
        )
        return None
    result = noqa.add_noqa(doc.source, [finding])
    _warn_hidden_elsewhere(ls, doc, finding, result.text, result.added, str(data.get("vmap") or doc.uri))
    return edit


def _judged_now(findings: Sequence[Finding], offered: Fix) -> Fix | None:
    """The fix of the current `findings` that is `offered` (the same key, title and safety), judged against
    the files as they are now; None when they no longer offer it."""
    return next(
        (
            f
            for finding in findings
            for f in finding.fixes
            if f.key == offered.key and f.title == offered.title and f.applicability == offered.applicability
        ),
        None,
    )


def _same_fix(findings: list[Finding], old: Fix) -> Fix | None:
    matches = {
        f.id: f for finding in findings for f in finding.fixes if f.transform == old.transform and f.title == old.title
    }
    return next(iter(matches.values())) if len(matches) == 1 else None


def _fix_all_edit(ls: SpmdfixServer, doc: Document) -> lsp.WorkspaceEdit | None:
    """What `spmdfix fix FILE` would write for the document's text (its settings, its suppressions), as
    edits of the buffer: analysed with the document's project index, as `fix` analyses it (the imports it
    follows, and the imported names the fixes leave unread removed: `fix_engine._Run._remove_unused_imports`;
    without it a vmap of an imported function had no finding here, newuser12); then, as `fix`'s second step
    (`runner.cross_module`), the chosen fixes that edit other modules (an axis added to config.py's mesh, a
    strip of model.py's specs) and, for a module whose importers' vmaps place findings in it (a partial
    run), their fixes in the importers (`_across_modules`): one workspace edit of every file changed, each
    in its open document's text (versioned) or its file's, as a quick fix across modules is. The files are
    those `spmdfix fix FILE` writes: an editor running fix-all on save changes (unsaved) the other files too,
    where ruff's fix-all edits the document only; a fix across modules is one change, which half applied
    would break the program (an axis added to the mesh without the vmap that names it)."""
    source = doc.source
    if ls.checked(doc).syntax_error is not None:
        ls.tell(DOES_NOT_PARSE)
        return None
    settings = ls.settings(doc)
    try:
        index = ls.index(doc, settings)
    except Exception:  # noqa: BLE001 - as the analysis does (`SpmdfixServer.checked`): the module alone then
        index = None
    try:
        _, fixed = pipeline.fix_file(doc.path, source, settings, index=index)
    except pipeline.Skip:
        return None
    for error in fixed.errors:
        ls.log(lsp.MessageType.Warning, f"spmdfix: {error}")
    conv = ls.converter(source)
    texts = _across_modules(ls, doc, settings, index, fixed.text) if index is not None and doc.path is not None else {}
    own = str(doc.path.resolve()) if doc.path is not None else ""
    if not any(path != own for path in texts) and texts.get(own, fixed.text) == fixed.text:
        # The fix's own composed edits: a line diff of the two texts took seconds on a 12,000-line module.
        edits = [lsp.TextEdit(range=conv.range(e.span), new_text=e.content) for e in fixed.edits]
        return workspace_edit(ls, doc, edits)
    changed: dict[str, list[Edit]] = {}
    if texts.get(own, fixed.text) == fixed.text:
        changed[""] = list(fixed.edits)
    else:
        changed[""] = [_replacement(source, texts[own])]
    for path, new in texts.items():
        old = ls.text_of(path)
        if path != own and old is not None and new != old:
            edit = _replacement(old, new)
            changed[path] = [Edit(Span(edit.span.start, edit.span.end, path), edit.content)]
    return _across(ls, doc, [e for edits in changed.values() for e in edits])


def _across_modules(ls: SpmdfixServer, doc: Document, settings, index, own_text: str) -> dict[str, str]:
    """`fix`'s second step for the document (`runner.cross_module.cross_module_fixes`, one file): from
    `own_text` (the document fixed alone), the chosen fixes that edit other modules, and the fixes of the
    findings its importers' vmaps place in it, applied in the importers (`cross_module.located_in`), over the
    open documents' unsaved texts and the other files; the new text of each module changed (absolute path ->
    text; {} when no chosen fix of the document's findings edits another module or comes from another
    module's vmap, as most)."""
    from spmdfix.api import fix_modules
    from spmdfix.reaching import names_another_module
    from spmdfix.runner.cross_module import located_in, reaching_importers

    checked = ls.checked(doc)
    chosen = [(f, checked.chosen(f)) for f in checked.findings]
    if not any(fix is not None and (fix.edits_other_modules or names_another_module(f)) for f, fix in chosen):
        return {}
    own = str(doc.path.resolve())
    options = settings.options
    texts = {
        str(d.path.resolve()): d.source for d in ls.documents.values() if d.path is not None and d is not doc
    }
    texts[own] = own_text
    start = dict(texts)

    def split(text: str, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
        return pipeline.select(
            text, findings, settings.enabled, options.unfixable, options.layout_changing_fixes, None, options.per_file_ignores
        )

    root = index.root
    result = fix_modules([own], options, root, split, texts)
    texts.update(result.texts)
    errors = list(result.errors)
    # (a partial run's findings, of importers' vmaps: fixed in the importers, as `fix FILE` fixes them)
    if any(fix is not None and not f.span.path and any(r.span.path for r in f.related) for f, fix in chosen):
        importers = reaching_importers(own, root, texts)
        if importers:
            result = fix_modules(importers, options, root, located_in(own, texts[own], settings.enabled, options), texts)
            texts.update(result.texts)
            errors += result.errors
    for error in errors:
        ls.log(lsp.MessageType.Warning, f"spmdfix: {error}")
    return {path: text for path, text in texts.items() if text != start.get(path) or path == own}


def _replacement(old: str, new: str) -> Edit:
    """One edit of `old` giving `new`: the lines between their common first and last lines replaced (a line
    diff of two texts took seconds on a 12,000-line module; this is a pass over their lines)."""
    before, after = old.splitlines(keepends=True), new.splitlines(keepends=True)
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    start = sum(len(line) for line in before[:head])
    end = len(old) - sum(len(line) for line in before[len(before) - tail :]) if tail else len(old)
    content = "".join(after[head : len(after) - tail])
    return Edit(Span(start, end), content)
