"""The language server: diagnostics and code actions over the one source-in API (`spmdfix.api`).

`serve()` runs it over stdio (or TCP); `spmdfix lsp` and `python -m spmdfix.lsp` call it. What it does:

- diagnostics on didOpen and didSave at once, on didChange after a per-document debounce (30 ms by default,
  `initializationOptions: {"debounce_ms": N}`); each carries in `data` the document version and every fix
  of its finding, so that code actions need no re-analysis while the document is unchanged;
- a buffer that does not parse keeps the diagnostics last published for it (no SPMD900 while typing);
- code actions: one `quickfix` per fix (its edits built in `codeAction/resolve` when the client can resolve
  edits, eagerly otherwise), one `quickfix` that adds `# noqa: CODE` to the finding's line, and
  `source.fixAll.spmdfix`, the safe fixes of the whole document (what `spmdfix fix` writes);
- positions in the encoding negotiated at initialize (UTF-16 unless the client offers UTF-8 or UTF-32).

The server never dies of what it analyses: a failure inside the analysis becomes a `window/logMessage`
error and empty diagnostics for that document.
"""

from __future__ import annotations

import asyncio
import difflib
import enum
import logging
import re
import sys
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

import libcst as cst
from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from spmdfix import __version__, api, noqa, rules
from spmdfix.model import (
    Applicability,
    Edit,
    Finding,
    Fix,
    NodeEdit,
    Span,
    Strategy,
    Transform,
)
from spmdfix.positions import LineIndex

logger = logging.getLogger(__name__)

SOURCE = "spmdfix"
DEFAULT_DEBOUNCE_MS = 30
MAX_DEBOUNCE_MS = 10_000
FIX_ALL_KIND = f"{lsp.CodeActionKind.SourceFixAll.value}.spmdfix"
ERROR_CODES = frozenset({rules.IN_SPECS.code, rules.OUT_SPECS.code})

# Lines end where LSP (and Python's tokenizer) says they do: "\r\n", "\r", "\n". Not `str.splitlines`, which
# also splits at form feeds and Unicode separators.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


# --- positions ------------------------------------------------------------------------------------------


class PositionConverter:
    """Code-point offsets of one text <-> LSP positions in one encoding ("utf-8", "utf-16" or "utf-32")."""

    __slots__ = ("encoding", "lines")

    def __init__(self, source: str, encoding: str = lsp.PositionEncodingKind.Utf16.value) -> None:
        self.lines = LineIndex(source)
        self.encoding = encoding

    def position(self, offset: int) -> lsp.Position:
        """The LSP position of `offset` (clamped to the text)."""
        offset = min(max(offset, 0), len(self.lines.source))
        if self.encoding == lsp.PositionEncodingKind.Utf16.value:
            line, char = self.lines.utf16(offset)
            return lsp.Position(line=line, character=char)
        line = self.lines.line_of(offset)
        prefix = self.lines.source[self.lines.line_start(line) : offset]
        if self.encoding == lsp.PositionEncodingKind.Utf8.value:
            return lsp.Position(line=line, character=len(prefix.encode("utf-8", "surrogatepass")))
        return lsp.Position(line=line, character=len(prefix))

    def range(self, span: Span) -> lsp.Range:
        return lsp.Range(start=self.position(span.start), end=self.position(span.end))

    def offset(self, position: lsp.Position) -> int:
        """The offset of an LSP position; a position past a line's end is that line's end, past the last line
        the text's end. A position inside a character (a UTF-16 surrogate pair, a UTF-8 sequence) rounds up."""
        if position.line >= self.lines.line_count:
            return len(self.lines.source)
        if self.encoding == lsp.PositionEncodingKind.Utf16.value:
            return self.lines.from_utf16(position.line, position.character)
        start = self.lines.line_start(position.line)
        text = self.lines.line_text(position.line)
        if self.encoding != lsp.PositionEncodingKind.Utf8.value:
            return start + min(position.character, len(text))
        units = 0
        for i, ch in enumerate(text):
            if units >= position.character:
                return start + i
            units += len(ch.encode("utf-8", "surrogatepass"))
        return start + len(text)

    def span(self, rng: lsp.Range) -> Span:
        start, end = self.offset(rng.start), self.offset(rng.end)
        return Span(min(start, end), max(start, end))


# --- plain JSON for diagnostic and code action data ----------------------------------------------------


def to_json(value: Any) -> Any:
    """A dataclass tree (Fix, NodeEdit, Span, ...) as plain JSON values; enums become their values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def fix_from_json(data: dict[str, Any]) -> Fix:
    """The `Fix` that `to_json` wrote. Raises KeyError/TypeError/ValueError on malformed data."""
    return Fix(
        transform=Transform(data["transform"]),
        key=str(data["key"]),
        title=str(data["title"]),
        applicability=Applicability(data["applicability"]),
        reason=str(data.get("reason", "")),
        node_edits=tuple(
            NodeEdit(
                span=Span(int(e["span"]["start"]), int(e["span"]["end"])),
                kind=str(e["kind"]),
                code=str(e["code"]),
                index=int(e.get("index", 0)),
            )
            for e in data["node_edits"]
        ),
    )


def finding_from_json(data: dict[str, Any]) -> Finding:
    """The finding (without `related` and `refusals`) a diagnostic's `data` describes."""
    f = data["finding"]
    return Finding(
        code=str(f["code"]),
        name=str(f["name"]),
        message=str(f["message"]),
        span=Span(int(f["span"]["start"]), int(f["span"]["end"])),
        axis=str(f.get("axis", "")),
        fixes=tuple(fix_from_json(x) for x in data.get("fixes", ())),
    )


# --- documents and server state ------------------------------------------------------------------------


@dataclass(slots=True)
class Document:
    """spmdfix's own copy of an open document and the findings of its last analysed text."""

    uri: str
    source: str
    version: int | None
    checked_source: str | None = None
    findings: list[Finding] | None = None
    timer: asyncio.TimerHandle | None = None

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class SpmdfixProtocol(LanguageServerProtocol):
    """pygls's protocol, except that didChange does not edit pygls's copy of the document.

    pygls splits a document into lines with `str.splitlines`, which also breaks at form feeds and Unicode
    line separators, and it clamps out-of-line positions by mutating the request's Range in place; both
    would corrupt spmdfix's copy. spmdfix applies changes to its own copy (`Document`), on LSP's lines.
    """

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):  # type: ignore[override]
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None


class SpmdfixServer(LanguageServer):
    """The spmdfix language server and its per-document state."""

    def __init__(self) -> None:
        super().__init__("spmdfix", __version__, protocol_cls=SpmdfixProtocol)
        self.documents: dict[str, Document] = {}
        self.debounce_s = DEFAULT_DEBOUNCE_MS / 1000
        self.resolve_edits = False
        self.document_changes = False

    @property
    def encoding(self) -> str:
        """The negotiated position encoding ("utf-16" before initialize)."""
        try:
            enc = self.workspace.position_encoding
        except RuntimeError:
            return lsp.PositionEncodingKind.Utf16.value
        return enc.value if isinstance(enc, enum.Enum) else str(enc or lsp.PositionEncodingKind.Utf16.value)

    def converter(self, source: str) -> PositionConverter:
        return PositionConverter(source, self.encoding)

    def log(self, kind: lsp.MessageType, message: str) -> None:
        """Send `window/logMessage`; never raises (the client may be gone)."""
        try:
            self.window_log_message(lsp.LogMessageParams(type=kind, message=message))
        except Exception:  # logging must not take the server down
            logger.exception("cannot send window/logMessage")

    # --- analysis ---------------------------------------------------------------------------------------

    def findings(self, doc: Document) -> list[Finding]:
        """Findings of the document's current text, from the cache when that text was analysed. Never raises:
        a failure of the analysis is logged to the client and gives no findings."""
        if doc.findings is not None and doc.checked_source is not None and doc.checked_source == doc.source:
            return doc.findings
        source = doc.source
        try:
            found = api.check_source(source)
        except Exception:  # noqa: BLE001 - the one place an analysis failure is caught and reported
            self.log(lsp.MessageType.Error, f"spmdfix: analysis of {doc.uri} failed:\n{traceback.format_exc()}")
            found = []
        doc.checked_source, doc.findings = source, found
        return found

    def publish(self, doc: Document) -> None:
        """Analyse `doc` and publish its diagnostics. Never raises.

        A text that does not parse (SPMD900) publishes nothing: the client keeps the last diagnostics.
        """
        try:
            findings = self.findings(doc)
            # Verified first: a buffer in the middle of an edit must not replace good diagnostics by SPMD900.
            if any(f.code == rules.SYNTAX_ERROR.code for f in findings):
                return
            conv = self.converter(doc.source)
            diagnostics = [diagnostic(f, conv, doc.uri, doc.version) for f in findings]
        except Exception:  # noqa: BLE001 - converting a finding failed; report it, clear the document
            self.log(lsp.MessageType.Error, f"spmdfix: diagnostics of {doc.uri} failed:\n{traceback.format_exc()}")
            diagnostics = []
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=doc.uri, diagnostics=diagnostics, version=doc.version)
        )

    def schedule(self, doc: Document) -> None:
        """Publish `doc`'s diagnostics after the debounce delay, replacing any pending publication."""
        doc.cancel_timer()
        loop = asyncio.get_running_loop()
        doc.timer = loop.call_later(self.debounce_s, self._publish_later, doc.uri)

    def _publish_later(self, uri: str) -> None:
        doc = self.documents.get(uri)
        # Verified: the document may have been closed while the timer ran.
        if doc is None:
            return
        doc.timer = None
        self.publish(doc)


# --- diagnostics ---------------------------------------------------------------------------------------

_RULE_URLS: dict[str, str] = {}


def _rule_url(code: str) -> str | None:
    if code not in _RULE_URLS:
        rule = rules.RULES.get(code)
        _RULE_URLS[code] = rule.url if rule is not None else ""
    return _RULE_URLS[code] or None


def diagnostic_data(finding: Finding, version: int | None) -> dict[str, Any]:
    """What a code action needs of a finding, as plain JSON: the document version, the finding, its fixes."""
    return {
        "version": version,
        "finding": {
            "code": finding.code,
            "name": finding.name,
            "message": finding.message,
            "span": to_json(finding.span),
            "axis": finding.axis,
        },
        "fixes": [to_json(fix) for fix in finding.fixes],
    }


def diagnostic(finding: Finding, conv: PositionConverter, uri: str, version: int | None) -> lsp.Diagnostic:
    """The LSP diagnostic of one finding."""
    url = _rule_url(finding.code)
    related = [
        lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=conv.range(r.span)), message=r.message)
        for r in finding.related
    ]
    return lsp.Diagnostic(
        range=conv.range(finding.span),
        message=finding.message,
        severity=lsp.DiagnosticSeverity.Error if finding.code in ERROR_CODES else lsp.DiagnosticSeverity.Warning,
        code=finding.code,
        code_description=lsp.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related or None,
        data=diagnostic_data(finding, version),
    )


# --- code actions --------------------------------------------------------------------------------------


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """True when a request restricted to the kinds `only` asks for actions of `kind` (kinds are hierarchical)."""
    if not only:
        return True
    return any(kind == o or kind.startswith(f"{o}.") for o in only)


def fix_title(fix: Fix) -> str:
    suffix = " (unsafe)" if fix.applicability == Applicability.UNSAFE else ""
    return f"spmdfix: {fix.title}{suffix}"


def _findings_in_range(
    ls: SpmdfixServer, doc: Document, conv: PositionConverter, params: lsp.CodeActionParams
) -> Iterator[tuple[lsp.Diagnostic, Finding]]:
    """The findings a code action request is about, each with the diagnostic to attach.

    When every spmdfix diagnostic of the request carries the document's current version, the findings are
    rebuilt from their `data` (no analysis). Otherwise the current text's findings overlapping the range.
    """
    ours = [d for d in params.context.diagnostics if d.source == SOURCE]
    if ours and all(isinstance(d.data, dict) and d.data.get("version") == doc.version for d in ours):
        for diag in ours:
            try:
                yield diag, finding_from_json(diag.data)  # type: ignore[arg-type]
            except (KeyError, TypeError, ValueError):
                ls.log(lsp.MessageType.Warning, "spmdfix: ignored a diagnostic with malformed data")
        return
    wanted = conv.span(params.range)
    for finding in ls.findings(doc):
        # Verified: a tool diagnostic (SPMD900) has nothing to fix or suppress.
        if finding.code == rules.SYNTAX_ERROR.code:
            continue
        if finding.span.start <= wanted.end and wanted.start <= finding.span.end:
            yield diagnostic(finding, conv, doc.uri, doc.version), finding


def code_actions(ls: SpmdfixServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    """Quick fixes (one per fix, one `# noqa` per code and line) for the findings in the range, and
    `source.fixAll.spmdfix` when the document has a safe fix. Edits come in `codeAction/resolve` when the
    client can resolve them; otherwise they are built here, and fix-all only when asked for by kind."""
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    only = params.context.only
    conv = ls.converter(doc.source)
    fixes: dict[str, tuple[lsp.CodeAction, Fix]] = {}
    suppress: dict[tuple[int, str], lsp.CodeAction] = {}
    if _wants(only, lsp.CodeActionKind.QuickFix.value):
        for diag, finding in _findings_in_range(ls, doc, conv, params):
            preferred = api.choose_fix(finding, Strategy.AUTO, False)
            for fix in finding.fixes:
                is_preferred = preferred is not None and preferred.key == fix.key
                if fix.key in fixes:
                    # Findings that share a fix (SPMD001 and SPMD002 of one shard_map) share one action.
                    action = fixes[fix.key][0]
                    action.diagnostics = [*(action.diagnostics or []), diag]
                    action.is_preferred = bool(action.is_preferred) or is_preferred or None
                    continue
                action = lsp.CodeAction(
                    title=fix_title(fix),
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    is_preferred=is_preferred or None,
                    data={"uri": doc.uri, "version": doc.version, "action": "fix", "fix": to_json(fix)},
                )
                fixes[fix.key] = (action, fix)
            line = conv.lines.line_of(finding.span.start)
            if (line, finding.code) not in suppress:
                suppress[(line, finding.code)] = lsp.CodeAction(
                    title=f"spmdfix: Suppress {finding.code} on this line",
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    data={
                        "uri": doc.uri,
                        "version": doc.version,
                        "action": "noqa",
                        "finding": diagnostic_data(finding, doc.version)["finding"],
                    },
                )
    if not ls.resolve_edits:
        if fixes:
            _build_edits(ls, doc, conv, list(fixes.values()))
        for key, action in list(suppress.items()):
            action.edit = _noqa_edit(ls, doc, finding_from_json(action.data))  # type: ignore[arg-type]
            if action.edit is None:
                del suppress[key]
    actions = [a for a, _ in fixes.values()] + list(suppress.values())
    fix_all_asked = bool(only) and _wants(only, FIX_ALL_KIND)
    if (
        _wants(only, FIX_ALL_KIND)
        and (ls.resolve_edits or fix_all_asked)
        and any(api.choose_fix(f, Strategy.AUTO, False) is not None for f in ls.findings(doc))
    ):
        fix_all = lsp.CodeAction(
            title="spmdfix: Fix all safely fixable problems",
            kind=FIX_ALL_KIND,
            data={"uri": doc.uri, "version": doc.version, "action": "fixAll"},
        )
        actions.append(fix_all if ls.resolve_edits else resolve_code_action(ls, fix_all))
    return actions


def _build_edits(
    ls: SpmdfixServer, doc: Document, conv: PositionConverter, pairs: list[tuple[lsp.CodeAction, Fix]]
) -> None:
    """Fill in the edits of fix actions made for the current text, with one libcst parse for all."""
    try:
        built = api.fix_edits_for(doc.source, [fix for _, fix in pairs])
    except cst.ParserSyntaxError:
        return
    except Exception:  # noqa: BLE001 - a failed fix must not fail the request
        ls.log(lsp.MessageType.Error, f"spmdfix: building fixes failed:\n{traceback.format_exc()}")
        return
    for action, fix in pairs:
        edits = built.get(fix.key)
        if isinstance(edits, tuple):
            action.edit = workspace_edit(
                ls, doc, [lsp.TextEdit(range=conv.range(e.span), new_text=e.content) for e in edits]
            )
        elif edits is not None:
            action.disabled = lsp.CodeActionDisabled(reason=f"cannot apply: {edits}")


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
    return workspace_edit(ls, doc, [lsp.TextEdit(range=conv.range(span), new_text=new[prefix : len(new) - suffix])])


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
        ls.log(lsp.MessageType.Error, f"spmdfix: building `{action.title}` failed:\n{traceback.format_exc()}")
    return action


def _fix_edit(ls: SpmdfixServer, doc: Document, data: dict[str, Any]) -> lsp.WorkspaceEdit | None:
    fix = fix_from_json(data["fix"])
    if data.get("version") != doc.version:
        # The fix's spans belong to an older text: take the same fix (transform and title) of the current one.
        current = _same_fix(ls.findings(doc), fix)
        if current is None:
            _tell(ls, "spmdfix: the document changed and this fix no longer applies")
            return None
        fix = current
    source = doc.source
    try:
        built = api.fix_edits_for(source, [fix])[fix.key]
    except cst.ParserSyntaxError:
        _tell(ls, "spmdfix: the document does not parse; fix it first")
        return None
    if isinstance(built, str):
        _tell(ls, f"spmdfix: cannot apply `{fix.title}`: {built}")
        return None
    conv = ls.converter(source)
    return workspace_edit(ls, doc, [lsp.TextEdit(range=conv.range(e.span), new_text=e.content) for e in built])


def _suppress_edit(ls: SpmdfixServer, doc: Document, data: dict[str, Any]) -> lsp.WorkspaceEdit | None:
    finding = finding_from_json(data)
    if data.get("version") != doc.version:
        # The finding's span belongs to an older text: take the same finding (code and message) of the current one.
        same = [f for f in ls.findings(doc) if f.code == finding.code and f.message == finding.message]
        if len({f.span for f in same}) != 1:
            _tell(ls, "spmdfix: the document changed and this finding is gone or ambiguous; ask again")
            return None
        finding = same[0]
    edit = _noqa_edit(ls, doc, finding)
    if edit is None:
        _tell(
            ls,
            f"spmdfix: no `# noqa: {finding.code}` added: the line is already suppressed, or a comment cannot go"
            " there (it ends inside a multi-line string or with a `\\` continuation)",
        )
    return edit


def _same_fix(findings: list[Finding], old: Fix) -> Fix | None:
    matches = {
        f.key: f for finding in findings for f in finding.fixes if f.transform == old.transform and f.title == old.title
    }
    return next(iter(matches.values())) if len(matches) == 1 else None


def _tell(ls: SpmdfixServer, message: str) -> None:
    try:
        ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message))
    except Exception:
        logger.exception("cannot send window/showMessage")


def _fix_all_edit(ls: SpmdfixServer, doc: Document) -> lsp.WorkspaceEdit:
    source = doc.source
    result = api.fix_source(source, api.Options())
    for error in result.errors:
        ls.log(lsp.MessageType.Warning, f"spmdfix: {error}")
    conv = ls.converter(source)
    edits = [lsp.TextEdit(range=conv.range(e.span), new_text=e.content) for e in line_diff_edits(source, result.source)]
    return workspace_edit(ls, doc, edits)


def split_lines(text: str) -> list[str]:
    """`text` cut after each "\\r\\n", "\\r" or "\\n" (line endings kept; the pieces join back to `text`)."""
    return _LINE.findall(text)


def line_diff_edits(old: str, new: str) -> list[Edit]:
    """One edit per region of whole lines that differ between `old` and `new` (difflib opcodes on lines)."""
    a, b = split_lines(old), split_lines(new)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append(Edit(Span(starts[i1], starts[i2]), "".join(b[j1:j2])))
    return edits


# --- document sync and lifecycle handlers --------------------------------------------------------------


def initialize(ls: SpmdfixServer, params: lsp.InitializeParams) -> None:
    caps = params.capabilities
    text_caps = caps.text_document
    code_action_caps = text_caps.code_action if text_caps is not None else None
    resolve = code_action_caps.resolve_support if code_action_caps is not None else None
    ls.resolve_edits = resolve is not None and "edit" in (resolve.properties or [])
    ws_edit = caps.workspace.workspace_edit if caps.workspace is not None else None
    ls.document_changes = bool(ws_edit is not None and ws_edit.document_changes)
    options = params.initialization_options
    if isinstance(options, dict) and "debounce_ms" in options:
        value = options["debounce_ms"]
        # Verified: a bad setting is reported and ignored, not fatal.
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_DEBOUNCE_MS:
            ls.debounce_s = value / 1000
        else:
            ls.log(
                lsp.MessageType.Warning,
                f"spmdfix: ignored debounce_ms={value!r} (a number of ms, 0 to {MAX_DEBOUNCE_MS})",
            )


def did_open(ls: SpmdfixServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    old = ls.documents.pop(item.uri, None)
    if old is not None:
        old.cancel_timer()
    doc = ls.documents[item.uri] = Document(item.uri, item.text, item.version)
    ls.publish(doc)


def did_change(ls: SpmdfixServer, params: lsp.DidChangeTextDocumentParams) -> None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return
    source = doc.source
    for change in params.content_changes:
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            span = PositionConverter(source, ls.encoding).span(change.range)
            source = source[: span.start] + change.text + source[span.end :]
        else:
            source = change.text
    doc.source = source
    doc.version = params.text_document.version
    ls.schedule(doc)


def did_save(ls: SpmdfixServer, params: lsp.DidSaveTextDocumentParams) -> None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return
    if params.text is not None:
        doc.source = params.text
    doc.cancel_timer()
    ls.publish(doc)


def did_close(ls: SpmdfixServer, params: lsp.DidCloseTextDocumentParams) -> None:
    doc = ls.documents.pop(params.text_document.uri, None)
    if doc is not None:
        doc.cancel_timer()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def create_server() -> SpmdfixServer:
    """A new spmdfix language server with its features registered (not started)."""
    server = SpmdfixServer()
    server.feature(lsp.INITIALIZE)(initialize)
    server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))(did_save)
    server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=True),
    )(code_actions)
    server.feature(lsp.CODE_ACTION_RESOLVE)(resolve_code_action)
    return server


def serve(tcp_port: int | None = None) -> None:
    """Run the language server until the client exits: over stdio, or on 127.0.0.1:`tcp_port`.

    Over stdio, anything the analysis might print goes to stderr, so it cannot corrupt the protocol stream.
    """
    server = create_server()
    if tcp_port is not None:
        server.start_tcp("127.0.0.1", tcp_port)
        return
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        server.start_io(stdin, stdout)
    finally:
        sys.stdout = saved


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m spmdfix.lsp [--tcp PORT]`: the same command as `spmdfix lsp` (click parses it)."""
    from spmdfix.cli import main as cli

    cli(["lsp", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    main()
