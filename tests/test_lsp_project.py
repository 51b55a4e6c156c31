"""The long-lived server sees every change of the modules a document imports.

pkg/pipeline.py vmaps `block` of pkg/layers.py (re-exported by pkg/__init__.py), whose shard_map names the spmd
axis in in_specs and out_specs: two findings at the vmap (7:43). Editing layers.py so that its specs no
longer name 'data' must clear them, whether the edit is saved on disk behind the server's back, saved in the
editor, or only typed into layers.py's buffer; closing that buffer unsaved brings the file's findings back.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient
from test_lsp import ROOT, TIMEOUT, _actions, _change, _config, _open, _published, _start

pytestmark = pytest.mark.lsp

TREE = ROOT / "golden" / "add-axis" / "tree_reexport" / "input"
COLLIDING = "P('data', None)"
FREE = "P(None, None)"
AT_THE_VMAP = [("SPMD001", 7, 43), ("SPMD002", 7, 43)]
AT_THE_SPECS = [("SPMD001", 14, 59), ("SPMD002", 14, 86)]


@pytest_lsp.fixture(config=_config("-m", "spmdfix.lsp"))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copytree(TREE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'tree'\n")
    return tmp_path


def _codes(diagnostics: list[lsp.Diagnostic]) -> list[tuple[str, int, int]]:
    return [(str(d.code), d.range.start.line + 1, d.range.start.character + 1) for d in diagnostics]


def _count(client: LanguageClient, uri: str) -> int:
    return sum(1 for p in client.published if p.uri == uri)  # type: ignore[attr-defined]


async def _next_publication(client: LanguageClient, uri: str, after: int) -> list[lsp.Diagnostic]:
    """The diagnostics of the first publication for `uri` after the `after`-th one (waits for it)."""

    async def wait() -> list[lsp.Diagnostic]:
        while True:
            mine = [p for p in client.published if p.uri == uri]  # type: ignore[attr-defined]
            if len(mine) > after:
                return list(mine[after].diagnostics)
            await asyncio.sleep(0.005)

    return await asyncio.wait_for(wait(), TIMEOUT)


def _free_the_specs(layers: Path) -> str:
    text = layers.read_text()
    assert text.count(COLLIDING) == 2
    return text.replace(COLLIDING, FREE)


@pytest.mark.asyncio
async def test_an_imported_module_changed_on_disk_is_seen_at_the_next_change(
    client: LanguageClient, tree: Path
) -> None:
    """No notification at all (another program wrote layers.py): the next analysis of pipeline.py, after a
    keystroke there, reads the new file instead of the index's old parse."""
    pipeline, layers = tree / "pkg" / "pipeline.py", tree / "pkg" / "layers.py"
    await _start(client)
    _open(client, pipeline.read_text(), uri=pipeline.as_uri())
    assert _codes(await _published(client, pipeline.as_uri(), 1)) == AT_THE_VMAP

    layers.write_text(_free_the_specs(layers))
    end = lsp.Position(line=7, character=0)
    _change(
        client,
        2,
        lsp.TextDocumentContentChangePartial(range=lsp.Range(start=end, end=end), text="# edited\n"),
        uri=pipeline.as_uri(),
    )
    assert _codes(await _published(client, pipeline.as_uri(), 2)) == []

    # And back: the file changed again (same size, another time stamp), the findings return.
    layers.write_text(layers.read_text().replace(FREE, COLLIDING))
    os.utime(layers, ns=(layers.stat().st_atime_ns, layers.stat().st_mtime_ns + 10_000_000))
    _change(
        client,
        3,
        lsp.TextDocumentContentChangePartial(range=lsp.Range(start=end, end=end), text="#\n"),
        uri=pipeline.as_uri(),
    )
    assert _codes(await _published(client, pipeline.as_uri(), 3)) == AT_THE_VMAP


@pytest.mark.asyncio
async def test_an_unsaved_buffer_of_an_imported_module_updates_the_importer(
    client: LanguageClient, tree: Path
) -> None:
    """Typing in layers.py's buffer publishes pipeline.py again, untouched, with what the buffer implies;
    closing the buffer unsaved publishes it again with what the file on disk implies."""
    pipeline, layers = tree / "pkg" / "pipeline.py", tree / "pkg" / "layers.py"
    await _start(client)
    _open(client, pipeline.read_text(), uri=pipeline.as_uri())
    assert _codes(await _published(client, pipeline.as_uri(), 1)) == AT_THE_VMAP
    _open(client, layers.read_text(), uri=layers.as_uri())
    # layers.py itself shows the collision pipeline.py's vmap reaches in it, at its specs (a partial run,
    # issue 20: before it, an open layers.py showed nothing).
    assert _codes(await _published(client, layers.as_uri(), 1)) == AT_THE_SPECS

    seen = _count(client, pipeline.as_uri())
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=_free_the_specs(layers)), uri=layers.as_uri())
    assert _codes(await _next_publication(client, pipeline.as_uri(), seen)) == []
    assert COLLIDING in layers.read_text()  # nothing was saved

    seen = _count(client, pipeline.as_uri())
    client.text_document_did_close(
        lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=layers.as_uri()))
    )
    assert _codes(await _next_publication(client, pipeline.as_uri(), seen)) == AT_THE_VMAP


@pytest.mark.asyncio
async def test_saving_an_imported_module_updates_the_importer(client: LanguageClient, tree: Path) -> None:
    """layers.py edited in its buffer, then saved and closed: pipeline.py is published again at each step and
    ends with what the saved file implies (no analysis from before the save is served again)."""
    pipeline, layers = tree / "pkg" / "pipeline.py", tree / "pkg" / "layers.py"
    await _start(client)
    _open(client, pipeline.read_text(), uri=pipeline.as_uri())
    assert _codes(await _published(client, pipeline.as_uri(), 1)) == AT_THE_VMAP
    _open(client, layers.read_text(), uri=layers.as_uri())
    await _published(client, layers.as_uri(), 1)
    layers_id = lsp.TextDocumentIdentifier(uri=layers.as_uri())

    seen = _count(client, pipeline.as_uri())
    free = _free_the_specs(layers)
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=free), uri=layers.as_uri())
    assert _codes(await _next_publication(client, pipeline.as_uri(), seen)) == []

    seen = _count(client, pipeline.as_uri())
    layers.write_text(free)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=layers_id))
    assert _codes(await _next_publication(client, pipeline.as_uri(), seen)) == []

    seen = _count(client, pipeline.as_uri())
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=layers_id))
    assert _codes(await _next_publication(client, pipeline.as_uri(), seen)) == []

    seen = _count(client, pipeline.as_uri())
    pipeline_id = lsp.TextDocumentIdentifier(uri=pipeline.as_uri())
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=pipeline_id))
    assert _codes(await _next_publication(client, pipeline.as_uri(), seen)) == []


def _indexes_over(tree: Path):
    """A `ProjectIndexes` holding one index of `tree` that loaded pkg/config.py (stamped as the server does)."""
    from spmdfix.lsp.project import ProjectIndexes

    indexes = ProjectIndexes()
    index = indexes.get(tree, tree / "pkg" / "use.py", {})
    assert index.module("pkg.config") is not None
    indexes.analysed(index)
    return indexes, index


def test_a_kept_index_is_not_reused_after_a_same_size_rewrite(tmp_path: Path, monkeypatch) -> None:
    """The server's kept index is reused only while every file it read has its stat key: a same-size rewrite
    with the mtime set back still changes the ctime. (Stamped by mtime and size, the old index was kept.)"""
    from spmdfix import stamps

    monkeypatch.setattr(stamps, "RACY_NS", 0)  # this second's stats are trusted: the key alone decides
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    config = tmp_path / "pkg" / "config.py"
    config.write_text("AXIS = 'x'\n")
    (tmp_path / "pkg" / "use.py").write_text("from pkg.config import AXIS\n")
    indexes, index = _indexes_over(tmp_path)
    assert indexes.get(tmp_path, tmp_path / "pkg" / "use.py", {}) is index  # nothing changed: reused
    before = os.stat(config)
    config.write_text("AXIS = 'y'\n")
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert indexes.get(tmp_path, tmp_path / "pkg" / "use.py", {}) is not index


def test_a_kept_index_is_not_reused_once_the_import_graph_it_used_changed(tmp_path: Path, monkeypatch) -> None:
    """A kept index that answered who imports pkg/config.py (a cross-module fix judged against them) is not
    reused once a new module imports it; one that never asked is; with `partial` (a partial run), a new
    module holding a vmap that imports the analysed one makes it stale too."""
    from spmdfix import stamps
    from spmdfix.lsp.project import ProjectIndexes

    monkeypatch.setattr(stamps, "RACY_NS", 0)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "config.py").write_text("AXIS = 'x'\n")
    use = tmp_path / "pkg" / "use.py"
    use.write_text("from pkg.config import AXIS\n")
    indexes = ProjectIndexes()
    index = indexes.get(tmp_path, use, {})
    assert indexes.get(tmp_path, use, {}) is index  # (never asked: reused whatever the graph)
    assert set(index.importers_of(str(tmp_path / "pkg" / "config.py"))) == {str(use)}
    (tmp_path / "pkg" / "reader.py").write_text("from pkg.config import AXIS\n\nN = len(AXIS)\n")
    assert indexes.get(tmp_path, use, {}) is not index
    index = indexes.get(tmp_path, use, {}, partial=True)
    assert indexes.get(tmp_path, use, {}, partial=True) is index
    (tmp_path / "pkg" / "train.py").write_text("import jax\nfrom pkg.use import AXIS\n\nf = jax.vmap(abs, spmd_axis_name=AXIS)\n")
    assert indexes.get(tmp_path, use, {}, partial=True) is not index


def test_a_partial_run_is_given_the_graph_its_kept_index_was_judged_by(tmp_path: Path, monkeypatch) -> None:
    """Each `get` for a partial run lists the project once (`graph_of(refresh=True)`) and hands that graph on
    (`ProjectIndexes.graph`, for `reaching.reached`, which then lists nothing again); the graph handed on is
    the project's now, with the index's overlay: a new module importing the analysed one is in it, whether
    the index is reused (its answers unchanged) or not."""
    from spmdfix import project_graph, stamps
    from spmdfix.lsp.project import ProjectIndexes

    monkeypatch.setattr(stamps, "RACY_NS", 0)
    listed = []
    listing = project_graph._project_files  # (what `graph_of` lists with)
    monkeypatch.setattr(project_graph, "_project_files", lambda root: listed.append(root) or listing(root))
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "config.py").write_text("AXIS = 'x'\n")
    use = tmp_path / "pkg" / "use.py"
    use.write_text("from pkg.config import AXIS\n")
    buffer = {str(tmp_path / "pkg" / "open.py"): "from pkg.use import AXIS\n"}  # (another document's buffer)
    indexes = ProjectIndexes()
    index = indexes.get(tmp_path, use, buffer, partial=True)
    assert len(listed) == 1 and set(indexes.graph(index).importers_of(str(use))) == set(buffer)
    assert indexes.get(tmp_path, use, buffer, partial=True) is index and len(listed) == 2
    reader = tmp_path / "pkg" / "reader.py"
    reader.write_text("from pkg.use import AXIS\n")
    assert indexes.get(tmp_path, use, buffer, partial=True) is index  # (no vmap in reader.py: same answers)
    assert set(indexes.graph(index).importers_of(str(use))) == {*buffer, str(reader)}
    assert len(listed) == 3
    assert indexes.graph(indexes.get(tmp_path, use, {})) is None  # (a new index, not partial: nothing listed)


def test_a_kept_index_is_not_reused_while_a_file_it_read_is_racy(tmp_path: Path) -> None:
    """A stamp taken within `stamps.RACY_NS` of a file's last change proves nothing (a rewrite in the same
    clock tick keeps every time): the index is built again until the file has settled."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "config.py").write_text("AXIS = 'x'\n")
    (tmp_path / "pkg" / "use.py").write_text("from pkg.config import AXIS\n")
    indexes, index = _indexes_over(tmp_path)
    assert indexes.get(tmp_path, tmp_path / "pkg" / "use.py", {}) is not index


@pytest.mark.asyncio
async def test_the_imported_module_alone_shows_what_its_importers_reach_in_it(client: LanguageClient, tree: Path) -> None:
    """Only layers.py open: the vmap of pipeline.py (on disk) reaches its shard_map, and the collision shows at
    the specs. An unsaved buffer of pipeline.py without `spmd_axis_name` clears it; closing that buffer
    brings it back (the file on disk holds the vmap)."""
    pipeline, layers = tree / "pkg" / "pipeline.py", tree / "pkg" / "layers.py"
    await _start(client)
    _open(client, layers.read_text(), uri=layers.as_uri())
    assert _codes(await _published(client, layers.as_uri(), 1)) == AT_THE_SPECS
    text = pipeline.read_text()
    _open(client, text, uri=pipeline.as_uri())
    await _published(client, pipeline.as_uri(), 1)
    seen = _count(client, layers.as_uri())
    plain = text.replace(", spmd_axis_name='data'", "")
    assert plain != text
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=plain), uri=pipeline.as_uri())
    assert _codes(await _next_publication(client, layers.as_uri(), seen)) == []
    seen = _count(client, layers.as_uri())
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=pipeline.as_uri())))
    assert _codes(await _next_publication(client, layers.as_uri(), seen)) == AT_THE_SPECS


# --- issue 20: a module new to the project changes the cross-module fixes of the module it imports ---

STRIP_CALLER = "from pkg.model import forward\n\n\ndef evaluate(x):\n    return forward(x)\n"
MESH_READER = "from pkg.config import MESH\n\nAXES = len(MESH.axis_names)\n"


def _fix_classes(diagnostics: list[lsp.Diagnostic]) -> dict[str, str]:
    """transform -> applicability of the fixes the first diagnostic's data offers (the code actions' source)."""
    data = diagnostics[0].data
    assert isinstance(data, dict)
    return {fix["transform"]: fix["applicability"] for fix in data["fixes"]}


@pytest.mark.asyncio
@pytest.mark.parametrize(("name", "text", "transform"), [("evaluate.py", STRIP_CALLER, "strip"), ("sizes.py", MESH_READER, "add-axis")])
async def test_a_new_module_on_disk_makes_a_cross_module_fix_unsafe_at_the_next_analysis(
    client: LanguageClient, tmp_path: Path, name: str, text: str, transform: str
) -> None:
    """Only src/pkg/model.py open: a module written on disk behind the editor's back that calls `forward`
    directly (strip) or reads the mesh off the allowlist (add-axis) is among the importers the fix is judged
    against at the next analysis (a change of model.py's buffer), without any notification; a
    `workspace/didChangeWatchedFiles` for it republishes model.py at once."""
    from test_partial_runs import standard

    root = standard(tmp_path)
    model = root / "src" / "pkg" / "model.py"
    await _start(client)
    _open(client, model.read_text(), uri=model.as_uri())
    assert _fix_classes(await _published(client, model.as_uri(), 1))[transform] == "safe"

    (root / "src" / "pkg" / name).write_text(text)
    end = lsp.Position(line=13, character=0)
    change = lsp.TextDocumentContentChangePartial(range=lsp.Range(start=end, end=end), text="# edited\n")
    _change(client, 2, change, uri=model.as_uri())
    diagnostics = await _published(client, model.as_uri(), 2)
    assert _fix_classes(diagnostics)[transform] == "unsafe"
    reason = next(f["reason"] for f in diagnostics[0].data["fixes"] if f["transform"] == transform)
    assert f"src/pkg/{name} line" in reason, reason

    # Deleted, reported by the client's file watcher: model.py is published again, the fix safe again.
    (root / "src" / "pkg" / name).unlink()
    seen = _count(client, model.as_uri())
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(
            changes=[lsp.FileEvent(uri=(root / "src" / "pkg" / name).as_uri(), type=lsp.FileChangeType.Deleted)]
        )
    )
    assert _fix_classes(await _next_publication(client, model.as_uri(), seen))[transform] == "safe"


@pytest.mark.asyncio
async def test_opening_a_new_buffer_that_calls_the_layer_republishes_the_layer_module(client: LanguageClient, tmp_path: Path) -> None:
    """A buffer opened for a module that exists nowhere on disk yet (src/pkg/evaluate.py, calling `forward`
    directly): model.py, open, is published again with strip unsafe, naming the buffer's call; closing the
    buffer unsaved makes it safe again."""
    from test_partial_runs import standard

    root = standard(tmp_path)
    model, new = root / "src" / "pkg" / "model.py", root / "src" / "pkg" / "evaluate.py"
    await _start(client)
    _open(client, model.read_text(), uri=model.as_uri())
    assert _fix_classes(await _published(client, model.as_uri(), 1))["strip"] == "safe"
    seen = _count(client, model.as_uri())
    _open(client, STRIP_CALLER, uri=new.as_uri())
    diagnostics = await _next_publication(client, model.as_uri(), seen)
    assert _fix_classes(diagnostics)["strip"] == "unsafe"
    reason = next(f["reason"] for f in diagnostics[0].data["fixes"] if f["transform"] == "strip")
    assert "`forward(x)` (" in reason and "src/pkg/evaluate.py line 5)" in reason, reason
    seen = _count(client, model.as_uri())
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=new.as_uri())))
    assert _fix_classes(await _next_publication(client, model.as_uri(), seen))["strip"] == "safe"


@pytest.mark.asyncio
async def test_a_client_that_can_watch_files_is_asked_to_watch_the_modules_and_config(client: LanguageClient) -> None:
    """With dynamic registration of `workspace/didChangeWatchedFiles` in its capabilities, the client is asked
    (after `initialized`) to report every `*.py`, pyproject.toml and spmdfix.toml of the workspace; without
    it, nothing is asked (the default capabilities of the other tests)."""
    from test_lsp import _capabilities

    asked: list[lsp.RegistrationParams] = client.registrations  # type: ignore[attr-defined]
    capabilities = _capabilities()
    capabilities.workspace.did_change_watched_files = lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    await client.initialize_session(lsp.InitializeParams(capabilities=capabilities, initialization_options={"debounce_ms": 10}))

    async def registered() -> None:
        while not asked:
            await asyncio.sleep(0.005)

    await asyncio.wait_for(registered(), TIMEOUT)
    (registration,) = asked[0].registrations
    assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
    patterns = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in registration.register_options["watchers"]]
    assert patterns == ["**/*.py", "**/*.ipynb", "**/pyproject.toml", "**/spmdfix.toml"]


@pytest.mark.asyncio
@pytest.mark.parametrize(("edited", "shown", "row"), [("train.py", "model.py", 8), ("model.py", "train.py", 12)])
async def test_a_noqa_typed_in_the_other_modules_buffer_suppresses_the_cross_module_finding(
    client: LanguageClient, tmp_path: Path, edited: str, shown: str, row: int
) -> None:
    """model.py and train.py of the standard layout open: a `# noqa` typed, not saved, on the vmap's line of
    train.py's buffer (or on the spec's line of model.py's) suppresses the collision in the other document
    too, as the analysis follows the buffers (it read the file on disk); undoing it brings it back."""
    from test_partial_runs import standard

    root = standard(tmp_path)
    pkg = root / "src" / "pkg"
    await _start(client)
    for name in (shown, edited):
        _open(client, (pkg / name).read_text(), uri=(pkg / name).as_uri())
        assert [c for c, _, _ in _codes(await _published(client, (pkg / name).as_uri(), 1))] == ["SPMD001", "SPMD002"]
    text = (pkg / edited).read_text()
    lines = text.splitlines(keepends=True)
    lines[row - 1] = lines[row - 1].rstrip("\n") + "  # noqa\n"
    seen = _count(client, (pkg / shown).as_uri())
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text="".join(lines)), uri=(pkg / edited).as_uri())
    assert await _next_publication(client, (pkg / shown).as_uri(), seen) == []
    assert "noqa" not in (pkg / edited).read_text()
    seen = _count(client, (pkg / shown).as_uri())
    _change(client, 3, lsp.TextDocumentContentChangeWholeDocument(text=text), uri=(pkg / edited).as_uri())
    assert len(await _next_publication(client, (pkg / shown).as_uri(), seen)) == 2


# --- a typed edit's index reads the project as the kept index did (`ProjectIndex(earlier=...)`) and each
# module's reads of the mesh are derived once per text (`ModuleIndex.derived`): what changed is judged anew ---

READER = "from pkg.config import MESH\n\nN = MESH.size\n"  # (on add-axis's allowlist: `mesh.size`)
OFF_THE_LIST = "N = MESH.devices.shape[0]"


def _add_axis(server, doc):
    """(applicability, reason) of the add-axis fix of the first finding of `doc`'s current text (the partial run
    of model.py: train.py's vmap at model.py's spec)."""
    from spmdfix.model import Transform

    findings = server.checked(doc).findings
    assert findings, "model.py shows the collision of train.py's vmap"
    fix = findings[0].fix_for(Transform.ADD_AXIS)
    assert fix is not None
    return str(fix.applicability), fix.reason


def _server_with_model_open(root: Path):
    from spmdfix.lsp.documents import Document
    from spmdfix.lsp.server import SpmdfixServer

    server = SpmdfixServer()
    model = (root / "src" / "pkg" / "model.py").resolve()
    doc = Document.open(model.as_uri(), model.read_text(), 1)
    server.documents[doc.uri] = doc
    return server, doc


def _typed(text: str, char: str = "x") -> str:
    """`text` with `char` typed into its first line's comment (a text unlike the file's: a partial run with an
    index of its own, `reaching.reached`)."""
    first, rest = text.split("\n", 1)
    return f"{first}  # {char}\n{rest}"


def test_a_typed_edit_sees_an_importer_of_the_mesh_changed_on_disk(tmp_path: Path, monkeypatch) -> None:
    """Only model.py open and typed into. reader.py reads the mesh on the allowlist: add-axis is safe, for the
    file's text and for a typed one (whose index takes the files as the kept index read them). reader.py then
    rewritten on disk to read `MESH.devices.shape[0]`: the same typed text, analysed again, makes add-axis
    unsafe naming reader.py's line; the reader made harmless again, safe again."""
    from spmdfix import stamps
    from test_partial_runs import standard

    monkeypatch.setattr(stamps, "RACY_NS", 0)  # (this second's stats are trusted: the stat key alone decides)
    root = standard(tmp_path)
    reader = root / "src" / "pkg" / "reader.py"
    reader.write_text(READER)
    server, doc = _server_with_model_open(root)
    disk = doc.source
    assert _add_axis(server, doc)[0] == "safe"
    doc.source = _typed(disk)
    assert _add_axis(server, doc)[0] == "safe"

    reader.write_text(READER.replace("N = MESH.size", OFF_THE_LIST))
    applicability, reason = _add_axis(server, doc)  # (the same typed text: only reader.py changed)
    assert applicability == "unsafe"
    assert "`N = MESH.devices.shape[0]` (" in reason and "src/pkg/reader.py line 3)" in reason, reason
    doc.source = disk
    assert _add_axis(server, doc)[0] == "unsafe"

    reader.write_text(READER.replace("N = MESH.size", "N = MESH.size  # again"))
    doc.source = _typed(disk, "y")
    assert _add_axis(server, doc)[0] == "safe"


def test_a_typed_edit_of_the_document_itself_is_judged_in_its_new_text(tmp_path: Path) -> None:
    """model.py imports the mesh: the reads of it in model.py's typed text are judged, not those of its file. A
    typed `MESH.devices.shape[0]` makes add-axis unsafe naming that line; typed away, safe again (the reads of
    the file's text, derived before, are those of that text)."""
    from test_partial_runs import standard

    root = standard(tmp_path)
    server, doc = _server_with_model_open(root)
    disk = doc.source
    assert _add_axis(server, doc)[0] == "safe"
    doc.source = _typed(disk) + f"\n{OFF_THE_LIST}\n"
    line = doc.source.splitlines().index(OFF_THE_LIST) + 1
    applicability, reason = _add_axis(server, doc)
    assert applicability == "unsafe"
    assert f"`{OFF_THE_LIST}` (" in reason and f"src/pkg/model.py line {line})" in reason, reason
    doc.source = _typed(disk, "y")
    assert _add_axis(server, doc)[0] == "safe"
    doc.source = disk
    assert _add_axis(server, doc)[0] == "safe"


@pytest.mark.asyncio
async def test_a_notebook_reading_the_mesh_is_judged_on_disk_and_as_the_cells_of_its_buffer(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A notebook on disk reading the mesh off the allowlist makes add-axis unsafe at model.py, naming its cell
    (`project_graph.judged_files`); open in the editor with that read removed, not saved, model.py's next
    analysis reads the buffer as the module of its code cells (not its JSON: read as Python, a JSON text is
    one dict display importing nothing) and add-axis is safe; the read typed again in another cell of the
    buffer makes it unsafe, naming that cell."""
    from test_judged_files import notebook
    from test_partial_runs import standard

    root = standard(tmp_path)
    model, explore = root / "src" / "pkg" / "model.py", root / "explore.ipynb"
    head = [("markdown", "# groups\n"), ("code", "from pkg.config import MESH\n")]
    explore.write_text(notebook(*head, ("code", "n = MESH.devices.shape[0]\n")))
    await _start(client)
    _open(client, model.read_text(), uri=model.as_uri())
    diagnostics = await _published(client, model.as_uri(), 1)
    assert _fix_classes(diagnostics)["add-axis"] == "unsafe"
    reason = next(f["reason"] for f in diagnostics[0].data["fixes"] if f["transform"] == "add-axis")
    assert "explore.ipynb cell 3 line 1)" in reason, reason

    _open(client, notebook(*head, ("code", "n = 1\n")), uri=explore.as_uri())
    end = lsp.Position(line=13, character=0)
    change = lsp.TextDocumentContentChangePartial(range=lsp.Range(start=end, end=end), text="# edited\n")
    _change(client, 2, change, uri=model.as_uri())
    assert _fix_classes(await _published(client, model.as_uri(), 2))["add-axis"] == "safe"

    again = notebook(*head, ("code", "n = 1\n"), ("code", "m = len(MESH.axis_names)\n"))
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=again), uri=explore.as_uri())
    _change(client, 3, change, uri=model.as_uri())
    diagnostics = await _published(client, model.as_uri(), 3)
    assert _fix_classes(diagnostics)["add-axis"] == "unsafe"
    reason = next(f["reason"] for f in diagnostics[0].data["fixes"] if f["transform"] == "add-axis")
    assert "explore.ipynb cell 4 line 1)" in reason, reason


# --- newuser11: the SPMD910 records an importer's analysis places in the open module are shown there ---

RECORD_CONFIG = """from functools import partial

import jax
from jax.sharding import AxisType

DATA, MODEL = "data", "model"
MESH = jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(AxisType.Auto, AxisType.Auto))


def sharded(spec):
    return partial(jax.shard_map, mesh=MESH, in_specs=spec, out_specs=spec)
"""
RECORD_MODEL = """import jax
from jax.sharding import PartitionSpec as P

from pa.config import MODEL, sharded


@sharded(P(MODEL, None))
def gelu(x):
    return jax.nn.gelu(x)
"""
RECORD_TRAIN = "import jax\n\nfrom pa.config import DATA\nfrom pa.model import gelu\n\n\ndef main(xs):\n    return jax.vmap(gelu, spmd_axis_name=DATA)(xs)\n"


@pytest.mark.asyncio
async def test_the_records_an_importer_places_in_the_open_module_are_shown(client: LanguageClient, tmp_path: Path) -> None:
    """Only model.py open: train.py's spmd vmap reaches `gelu`, whose decorator factory (a function of
    config.py) the analysis does not read; `spmdfix check pa/model.py --show-unresolved` lists that SPMD910 record at the decorator, and the
    editor must show it too (an empty document says "followed to the end, and clean": docs/editors.md). The
    server passed the importers' findings to the document's check but not their records (newuser11 item 4)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pa'\n")
    pkg = tmp_path / "pa"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(RECORD_CONFIG)
    (pkg / "model.py").write_text(RECORD_MODEL)
    (pkg / "train.py").write_text(RECORD_TRAIN)
    await _start(client)
    model = pkg / "model.py"
    _open(client, RECORD_MODEL, uri=model.as_uri())
    diagnostics = await _published(client, model.as_uri(), 1)
    records = [d for d in diagnostics if str(d.code) == "SPMD910"]
    assert [(d.range.start.line + 1, d.severity) for d in records] == [(7, lsp.DiagnosticSeverity.Information)]
    assert "sharded" in records[0].message


@pytest.mark.asyncio
async def test_two_vmaps_reaching_one_spec_give_fix_actions_that_name_their_vmap(client: LanguageClient, tree: Path) -> None:
    """pipeline.py and evaluate.py each vmap `block` over 'data': layers.py's spec holds one finding per vmap
    (per code), each with its own fixes of the same titles. The quick fixes at the spec name the vmap they edit
    (newuser11 item 6: eight actions, each title twice, nothing to tell them apart)."""
    (tree / "pkg" / "evaluate.py").write_text(
        "import jax\n\nfrom pkg import block\n\n\ndef evaluate(xs):\n    return jax.vmap(block, spmd_axis_name='data')(xs)\n"
    )
    layers = tree / "pkg" / "layers.py"
    await _start(client)
    _open(client, layers.read_text(), uri=layers.as_uri())
    diagnostics = await _published(client, layers.as_uri(), 1)
    at_spec = [d for d in diagnostics if str(d.code) == "SPMD001"]
    assert len(at_spec) == 2
    actions = await _actions(client, at_spec[0].range, at_spec, uri=layers.as_uri())
    fixes = [a.title for a in actions if "Suppress" not in a.title]
    assert len(fixes) == len(set(fixes)) and len(fixes) >= 2, fixes
    assert any("(the vmap at pkg/pipeline.py line 7)" in t for t in fixes), fixes
    assert any("(the vmap at pkg/evaluate.py line 7)" in t for t in fixes), fixes


async def test_a_module_applying_a_shard_map_with_another_module_s_spec_shows_the_collision(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Only layers.py open, whose shard_map takes its specs from `activation_spec()` of specs.py: the collision
    of run.py's vmap, located at specs.py's `P(DATA, MODEL)`, shows at the chain's first place in the document
    (`gelu_block(x)`, the call that leads to the shard_map), the spec as the first related place, with the safe add-axis `spmdfix fix pkg/layers.py` applies
    (a partial run reported nothing here before: newuser14's x02)."""
    shutil.copytree(ROOT / "golden" / "add-axis" / "tree_spec_helper_other_module" / "input", tmp_path, dirs_exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'tree'\n")
    layers, specs = tmp_path / "pkg" / "layers.py", tmp_path / "pkg" / "specs.py"
    await _start(client)
    _open(client, layers.read_text(), uri=layers.as_uri())
    diagnostics = await _published(client, layers.as_uri(), 1)
    assert _codes(diagnostics) == [("SPMD001", 14, 16), ("SPMD002", 14, 16)]
    first = diagnostics[0].related_information[0]
    assert (first.location.uri, first.location.range.start.line + 1) == (specs.as_uri(), 8)
    assert _fix_classes(diagnostics) == {"add-axis": "safe", "strip": "unsafe", "drop-spmd-axis": "unsafe"}


async def test_a_module_on_the_chain_naming_no_shard_map_shows_the_collision(client: LanguageClient, tmp_path: Path) -> None:
    """Only pkg/blocks.py open, whose `residual(x)` lies between run.py's vmap (through pkg/model.py) and
    layers.py's shard_map with specs.py's spec, and which names no shard_map, spec, mesh or sharding: the
    collision shows at that call, the spec related, with the safe add-axis (breaker21 v02: nothing showed)."""
    shutil.copytree(ROOT / "golden" / "add-axis" / "tree_spec_helper_through_intermediates" / "input", tmp_path, dirs_exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'tree'\n")
    blocks, specs = tmp_path / "pkg" / "blocks.py", tmp_path / "pkg" / "specs.py"
    await _start(client)
    _open(client, blocks.read_text(), uri=blocks.as_uri())
    diagnostics = await _published(client, blocks.as_uri(), 1)
    assert _codes(diagnostics) == [("SPMD001", 5, 12), ("SPMD002", 5, 12)]
    first = diagnostics[0].related_information[0]
    assert (first.location.uri, first.location.range.start.line + 1) == (specs.as_uri(), 8)
    assert _fix_classes(diagnostics) == {"add-axis": "safe", "strip": "unsafe", "drop-spmd-axis": "unsafe"}


@pytest.mark.asyncio
@pytest.mark.parametrize("edited", [False, True])
async def test_a_quick_fix_judged_against_a_module_changed_on_disk_since_is_not_given(
    client: LanguageClient, tmp_path: Path, edited: bool
) -> None:
    """train.py open, its vmap reaching model.py's specs (add-axis across config.py and train.py). model.py is
    changed on disk after the diagnostics were published (its specs no longer name 'data'), with no
    notification: the code action the client asks with those diagnostics (same document version) resolves to
    no edit, the user told why, since the current analysis no longer offers the fix (breaker20's stale
    judgement, the editor's way: the editor applies the edit, so the judgement is checked when it is built).
    Unchanged, the same action resolves to its edit of both files."""
    from test_partial_runs import standard

    root = standard(tmp_path)
    train, model = root / "src" / "pkg" / "train.py", root / "src" / "pkg" / "model.py"
    await _start(client)
    _open(client, train.read_text(), uri=train.as_uri())
    diagnostics = await _published(client, train.as_uri(), 1)
    ours = [d for d in diagnostics if str(d.code) == "SPMD001"]
    assert ours, _codes(diagnostics)
    if edited:
        model.write_text(model.read_text().replace("P(DATA)", "P(None)"))
    actions = await _actions(client, ours[0].range, ours, uri=train.as_uri())
    add_axis = [a for a in actions if isinstance(a.data, dict) and a.data.get("fix", {}).get("transform") == "add-axis"]
    assert add_axis, [a.title for a in actions]
    resolved = await client.code_action_resolve_async(add_axis[0])
    if not edited:
        assert resolved.edit is not None and resolved.edit.document_changes
        assert {dc.text_document.uri for dc in resolved.edit.document_changes} == {
            train.as_uri(), (root / "src" / "pkg" / "config.py").as_uri()
        }
        return
    assert resolved.edit is None

    async def told() -> None:
        while not any("judged against changed" in m.message for m in client.messages):  # type: ignore[attr-defined]
            await asyncio.sleep(0.005)

    await asyncio.wait_for(told(), TIMEOUT)
