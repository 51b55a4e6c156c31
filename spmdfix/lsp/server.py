"""The server: its state, lifecycle (initialize, options) and document sync (`lsp.transport` starts it).

Diagnostics go out on didOpen and didSave at once, on didChange after a per-document debounce.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import traceback
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from spmdfix import __version__, file_settings, pipeline
from spmdfix.config import Resolver
from spmdfix.links import docs_base
from spmdfix.lsp import DEFAULT_DEBOUNCE_MS, MAX_DEBOUNCE_MS
from spmdfix.lsp.actions import FIX_ALL_KIND, code_actions, resolve_code_action
from spmdfix.lsp.data import anchor, diagnostic, unfollowed_diagnostic
from spmdfix.lsp.documents import Document, SpmdfixProtocol
from spmdfix.lsp.project import ProjectIndexes
from spmdfix.lsp.text import PositionConverter
from spmdfix.lsp.watching import as_on_disk, did_change_watched_files, importer_of, initialized, is_config
from spmdfix.model import Finding
from spmdfix.file_settings import FileSettings
from spmdfix.pipeline import Checked
from spmdfix.settings import ConfigError

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.reaching import Reached

logger = logging.getLogger(__name__)


def _module_text(doc: Document) -> str | None:
    """The module text an open document stands for in another document's project index: its buffer; for a
    notebook, the module of its code cells (`notebook.module_text`: a fix judged against the notebook's reads
    of a mesh reads that), None when the buffer is not a Python notebook spmdfix can read (its file is read)."""
    if doc.path is None or doc.path.suffix != ".ipynb":
        return doc.source
    from spmdfix.notebook import NotebookError, module_text

    try:
        return module_text(doc.source)
    except NotebookError:
        return None


class SpmdfixServer(LanguageServer):
    """The spmdfix language server and its per-document state."""

    def __init__(self) -> None:
        super().__init__("spmdfix", __version__, protocol_cls=SpmdfixProtocol)
        self.documents: dict[str, Document] = {}
        self.debounce_s = DEFAULT_DEBOUNCE_MS / 1000
        self.resolve_edits = False
        self.document_changes = False
        self.watch_files = False  # the client watches files for the server when asked (`initialized`)
        self.resolver = Resolver()
        self.config_errors: set[str] = set()
        self.indexes = ProjectIndexes()

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

    def settings(self, doc: Document) -> FileSettings:
        """The settings of the document's file, as `spmdfix check` resolves them (`[tool.spmdfix]` of the
        closest spmdfix.toml / pyproject.toml); the defaults for a document without a file. A bad
        configuration file is shown to the user once and the defaults are used."""
        if doc.path is None:
            return FileSettings()
        try:
            return file_settings.resolve(self.resolver, doc.path)
        except ConfigError as err:
            if str(err) not in self.config_errors:
                self.config_errors.add(str(err))
                self.tell(f"spmdfix: {err}; using the default settings")
            return FileSettings()

    def docs(self, doc: Document) -> str | None:
        """The base of the rule links of the document's diagnostics (`links.docs_base` of its file's
        `docs-url` setting; of none for a document without a file or whose configuration cannot be read)."""
        setting = None
        if doc.path is not None:
            try:
                setting = self.resolver.for_file(os.path.abspath(doc.path)).docs_url
            except ConfigError:
                pass  # (said once by `settings`)
        return docs_base(setting)

    def checked(self, doc: Document) -> Checked:
        """What `spmdfix check` finds in the document's current text (its unsaved buffer), from the cache when
        that text was analysed with the same project index (the other modules unchanged, on disk and in
        buffers). Never raises: a failure of the analysis is logged to the client and gives no findings; a
        file `spmdfix check` skips (marked `@generated`, a notebook's JSON) has none. The project is listed
        once for it (`project_graph.listed_once`): the kept index's check and the analysis share the listing."""
        from spmdfix.project_graph import listed_once

        with listed_once():
            return self._checked(doc)

    def _checked(self, doc: Document) -> Checked:
        source = doc.source
        settings = self.settings(doc)
        try:
            index = self.index(doc, settings)
        except Exception:  # noqa: BLE001 - reported like an analysis failure; the module is analysed alone
            self.log(lsp.MessageType.Error, f"spmdfix: project index of {doc.uri} failed:\n{traceback.format_exc()}")
            index = None
        if doc.checked is not None and doc.checked_source == source and doc.checked_index is index:
            return doc.checked
        checked = Checked(source, settings)
        read: list[tuple[str, str]] = []
        if doc.path is None or doc.path.suffix != ".ipynb":
            try:
                with index.recording() if index is not None else contextlib.nullcontext(read) as read:
                    found = self.reached(doc, source, settings, index)
                    checked = pipeline.check_file(
                        doc.path, source, settings, index=index, reached=found.findings,
                        reached_unfollowed=found.unfollowed,
                    )
                read = [*read, *((path, digest) for path, digest in found.depends if os.path.isabs(path))]
            except pipeline.Skip:
                pass
            except Exception:  # noqa: BLE001 - the one place an analysis failure is caught and reported
                self.log(lsp.MessageType.Error, f"spmdfix: analysis of {doc.uri} failed:\n{traceback.format_exc()}")
            if index is not None:
                self.indexes.analysed(index)
        doc.checked_source, doc.checked, doc.checked_index = source, checked, index
        doc.depends = frozenset(path for path, _ in read)
        return checked

    def reached(self, doc: Document, source: str, settings: FileSettings, index: ProjectIndex | None) -> Reached:
        """What the spmd vmaps of the modules importing the document's file place in it (`reaching.reached`,
        a partial run as `spmdfix check model.py` makes): the modules on disk, or their open documents'
        unsaved texts, and the import graph listed again (files change under a long-lived server). Nothing
        for a document without a file or an index, or whose text names no shard_map, spec, mesh or sharding."""
        from spmdfix.prefilter.reached import may_hold_reached
        from spmdfix.reaching import Reached, reached

        if doc.path is None or index is None or not may_hold_reached(source):
            return Reached()
        graph = self.indexes.graph(index)  # (listed when the index was judged: `ProjectIndexes.get`)
        return reached(doc.path.resolve(), source, index, settings.options, live=True, graph=graph)

    def index(self, doc: Document, settings: FileSettings | None = None) -> ProjectIndex | None:
        """The project index for the document's analysis (None without a file): the modules of its project as
        `spmdfix check` reads them, except that the unsaved buffers of the other open documents replace their
        files. Kept while those buffers and the document analysed stay the same (typing in one document reuses
        it) and the files it read are unchanged on disk (`lsp.project.ProjectIndexes`); dropped when a file is
        saved or a configuration changes. Its root is the one `spmdfix check` uses for the file
        (`file_settings.project_root_of`: `project-root` of the file's settings, else found)."""
        if doc.path is None:
            return None
        path = doc.path.resolve()
        root = file_settings.project_root_of(path, settings if settings is not None else self.settings(doc))
        overlay = {
            str(d.path.resolve()): text
            for d in self.documents.values()
            if d.path is not None and d is not doc and (text := _module_text(d)) is not None
        }
        from spmdfix.prefilter.reached import may_hold_reached

        return self.indexes.get(root, path, overlay, partial=may_hold_reached(doc.source))

    def document_of(self, path: str) -> Document | None:
        """The open document of the file at `path` (absolute), or None."""
        for doc in self.documents.values():
            if doc.path is not None and str(doc.path.resolve()) == path:
                return doc
        return None

    def text_of(self, path: str) -> str | None:
        """The text of the module at `path` (absolute) as the server sees it: its open document's unsaved
        text, else its file (`files.text_of`); None when it cannot be read."""
        from spmdfix.files import text_of

        doc = self.document_of(path)
        return doc.source if doc is not None else text_of(path)

    def findings(self, doc: Document) -> tuple[Finding, ...]:
        """The reported findings of the document's current text (`checked`)."""
        return self.checked(doc).findings

    def config_changed(self) -> None:
        """A configuration file changed: settings are resolved again, and every document re-analysed."""
        self.resolver = Resolver()
        self.indexes.clear()
        self.config_errors.clear()
        for doc in list(self.documents.values()):
            doc.checked = None
            self.publish(doc)

    def tell(self, message: str) -> None:
        """Show the user a warning (`window/showMessage`); never raises."""
        try:
            self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message))
        except Exception:
            logger.exception("cannot send window/showMessage")

    def publish(self, doc: Document) -> None:
        """Analyse `doc` and publish its diagnostics. Never raises.

        A text that does not parse (SPMD900) publishes nothing: the client keeps the last diagnostics.
        """
        try:
            checked = self.checked(doc)
            # Verified first: a buffer in the middle of an edit must not replace good diagnostics by SPMD900.
            if checked.syntax_error is not None:
                return
            conv = self.converter(doc.source)
            docs = self.docs(doc)
            diagnostics = [
                diagnostic(f, conv, doc.uri, doc.version, docs) for f in checked.findings if anchor(f) is not None
            ]
            for place in checked.unfollowed:  # (empty when SPMD910 is not selected)
                if (shown := unfollowed_diagnostic(place, conv, doc.uri, docs)) is not None:
                    diagnostics.append(shown)
        except Exception:  # noqa: BLE001 - converting a finding failed; report it, clear the document
            self.log(lsp.MessageType.Error, f"spmdfix: diagnostics of {doc.uri} failed:\n{traceback.format_exc()}")
            diagnostics = []
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=doc.uri, diagnostics=diagnostics, version=doc.version)
        )

    def publish_dependents(self, doc: Document, read: bool = True, graph: bool = False) -> None:
        """Publish again the other open documents whose analysis `doc`'s new text (a buffer, a close that
        reverts to the file, a save) may change. read: those whose last analysis read `doc`'s file (it
        imports it, maybe through others; or, a partial run, it is an importer reaching into them). graph:
        those `doc` imports by the project's import graph listed again, or every one when it may load any
        module by name (an importer without a vmap is read by no analysis, yet makes the cross-module fixes
        of the modules it imports unsafe)."""
        if doc.path is None:
            return
        path = str(doc.path.resolve())
        importer = importer_of(self, doc, path) if graph else None
        for other in list(self.documents.values()):
            if other is doc or other.path is None:
                continue
            there = str(other.path.resolve())
            if read and path in other.depends or importer is not None and importer(there):
                self.publish(other)

    def schedule(self, doc: Document) -> None:
        """Publish `doc`'s diagnostics after a change, replacing any pending publication: at once when the
        document was not opened, changed or analysed for the debounce delay, else after the delay without
        further changes. A lone edit (a quick fix, a paste, an undo) is analysed without waiting, as
        Neovim's client sends its didChange (`debounce_text_changes` waits only within a burst), while a
        burst of keystrokes costs one more analysis, at its start, than a plain trailing debounce."""
        doc.cancel_timer()
        loop = asyncio.get_running_loop()
        now = loop.time()
        quiet = doc.last_event is None or now - doc.last_event >= self.debounce_s
        doc.last_event = now
        if quiet:
            doc.timer = loop.call_soon(self._publish_later, doc.uri)
        else:
            doc.timer = loop.call_later(self.debounce_s, self._publish_later, doc.uri)

    def _publish_later(self, uri: str) -> None:
        doc = self.documents.get(uri)
        # Verified: the document may have been closed while the timer ran.
        if doc is None:
            return
        doc.timer = None
        self.publish(doc)
        doc.last_event = asyncio.get_running_loop().time()
        self.publish_dependents(doc)


def initialize(ls: SpmdfixServer, params: lsp.InitializeParams) -> None:
    caps = params.capabilities
    text_caps = caps.text_document
    code_action_caps = text_caps.code_action if text_caps is not None else None
    resolve = code_action_caps.resolve_support if code_action_caps is not None else None
    ls.resolve_edits = resolve is not None and "edit" in (resolve.properties or [])
    ws_edit = caps.workspace.workspace_edit if caps.workspace is not None else None
    ls.document_changes = bool(ws_edit is not None and ws_edit.document_changes)
    watched = caps.workspace.did_change_watched_files if caps.workspace is not None else None
    ls.watch_files = bool(watched is not None and watched.dynamic_registration)
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
    doc = ls.documents[item.uri] = Document.open(item.uri, item.text, item.version)
    ls.publish(doc)
    if not as_on_disk(doc):  # (its buffer now stands for its file: a module new to the project, or edited)
        ls.publish_dependents(doc, read=False, graph=True)
    with contextlib.suppress(RuntimeError):  # no running loop: a server driven without one
        doc.last_event = asyncio.get_running_loop().time()


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
    ls.indexes.clear()  # a module of the project changed on disk
    if is_config(params.text_document.uri):
        ls.config_changed()
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return
    if params.text is not None:
        doc.source = params.text
    doc.cancel_timer()
    ls.publish(doc)
    ls.publish_dependents(doc)


def did_close(ls: SpmdfixServer, params: lsp.DidCloseTextDocumentParams) -> None:
    doc = ls.documents.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
    if doc is not None:
        doc.cancel_timer()
        ls.publish_dependents(doc, graph=not as_on_disk(doc))  # they now read its file, not its buffer


def create_server() -> SpmdfixServer:
    """A new spmdfix language server with its features registered (not started)."""
    server = SpmdfixServer()
    server.feature(lsp.INITIALIZE)(initialize)
    server.feature(lsp.INITIALIZED)(initialized)
    server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))(did_save)
    server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched_files)
    server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(
            code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL_KIND],
            resolve_provider=True,
        ),
    )(code_actions)
    server.feature(lsp.CODE_ACTION_RESOLVE)(resolve_code_action)
    return server
