"""What the server learns of files outside the editor's buffers: the file watch it asks a client for, the
notifications it gets, and which open documents a module imports (`publish_dependents`).

A cross-module fix is judged against every module of the project (docs/safety.md): a module created, changed
or deleted anywhere may change the fixes offered for the open documents it imports. `server.py` drives it.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from spmdfix import file_settings
from spmdfix.config import CONFIG_NAME, PYPROJECT

if TYPE_CHECKING:
    from spmdfix.lsp.documents import Document
    from spmdfix.lsp.server import SpmdfixServer


# What the server asks a client that can watch files for it to report (`initialized`): every module of the
# project (a new importer changes the cross-module fixes of the modules it imports) and the config files.
WATCHED = ("**/*.py", "**/*.ipynb", f"**/{PYPROJECT}", f"**/{CONFIG_NAME}")  # (a notebook: a reader of a mesh)


def initialized(ls: SpmdfixServer, params: lsp.InitializedParams) -> None:
    """Ask a client that supports it (dynamic registration of `workspace/didChangeWatchedFiles`) to report
    the files `WATCHED` created, changed or deleted (`did_change_watched_files`)."""
    if not ls.watch_files:
        return
    watchers = [lsp.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED]
    registration = lsp.Registration(
        id="spmdfix-watched-files",
        method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    try:
        ls.client_register_capability(lsp.RegistrationParams(registrations=[registration]))
    except Exception:  # noqa: BLE001 - without the watch, changes are seen at the next analysis
        ls.log(lsp.MessageType.Warning, f"spmdfix: cannot ask the client to watch files:\n{traceback.format_exc()}")


def importer_of(ls: SpmdfixServer, doc: Document, path: str) -> Callable[[str], bool] | None:
    """Whether the module at `path` (`doc`'s file, its buffer standing for it) imports a given module,
    directly or not, or may load any by name: a test over the project's import graph listed now (None when
    no other document is open; always True when the project is too large to list, `ProjectGraph.complete`)."""
    from spmdfix.project_graph import graph_of

    if not any(d is not doc for d in ls.documents.values()):
        return None  # (no other document to publish: the project is not listed)
    root = file_settings.project_root_of(Path(path), ls.settings(doc))
    overlay = {str(d.path.resolve()): d.source for d in ls.documents.values() if d.path is not None}
    overlay[path] = doc.source
    graph = graph_of(root, refresh=True, overlay=overlay)
    if not graph.complete:  # (a project too large to list: who imports what is not known, so any may)
        return lambda there: True
    return lambda there: path in graph.dynamic or path in graph.reaching(there)


def as_on_disk(doc: Document) -> bool:
    """Whether the document's text is its file's (or it has no file): its buffer changes nothing another
    document's analysis reads."""
    from spmdfix.files import text_of

    return doc.path is None or text_of(str(doc.path)) == doc.source


def is_config(uri: str) -> bool:
    """True for the URI of a file settings come from (spmdfix.toml, pyproject.toml)."""
    return uri.rsplit("/", 1)[-1] in (CONFIG_NAME, PYPROJECT)


def did_change_watched_files(ls: SpmdfixServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """A client that watches files for the server (it registered the watch, `initialized`, or the client is
    configured to) reports files created, changed or deleted: a config file makes every document's settings
    read again; a Python module or a notebook (a new importer, a reader of the mesh: a cross-module fix is
    judged against notebooks too, `project_graph.judged_files`) makes every open document analysed again,
    with the project listed again."""
    if any(is_config(change.uri) for change in params.changes):
        ls.config_changed()
    elif any(change.uri.endswith((".py", ".ipynb")) for change in params.changes):
        ls.indexes.clear()
        for doc in list(ls.documents.values()):
            ls.publish(doc)
