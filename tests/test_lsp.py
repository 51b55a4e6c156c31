"""The language server end to end: pytest-lsp starts `python -m spmdfix.lsp` over stdio and drives it.

Positions and edits are checked against an independent client-side implementation (`_offset`, `_apply`)
and the results of quick fixes against `spmdfix.fix_source` and the golden `expected.py` files.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcMethodNotFound
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

import spmdfix
from spmdfix import Options, Transform, noqa
from spmdfix.api import analyse_source
from spmdfix.model import AUTO, STRATEGIES, strategy_of
from spmdfix.positions import LineIndex
from spmdfix.rules import RULES

pytestmark = pytest.mark.lsp

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "golden"
FIXTURES = Path(__file__).resolve().parent / "lsp_fixtures"
URI = "file:///work/example/model.py"
TIMEOUT = 20.0
FIX_ALL = "source.fixAll.spmdfix"


# --- client -------------------------------------------------------------------------------------------


def _record_publish(client: LanguageClient, params: lsp.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)  # type: ignore[attr-defined]


def _registered(client: LanguageClient, params: lsp.RegistrationParams) -> None:
    """Accept a `client/registerCapability` (the file watch the server asks of a client that can watch files,
    as real editors' capabilities say: `test_real_client_capabilities`); the registrations are kept."""
    client.registrations.append(params)  # type: ignore[attr-defined]


def _make_client() -> LanguageClient:
    """pytest-lsp's test client that also keeps every publishDiagnostics (with its version), in order, and
    accepts the server's registrations."""
    client = LanguageClient(converter_factory=default_converter)
    features = {
        **DEFAULT_CLIENT_FEATURES,
        lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record_publish,
        lsp.CLIENT_REGISTER_CAPABILITY: _registered,
    }
    register_lsp_features(client, features)
    client.registrations = []  # type: ignore[attr-defined]
    client.published = []  # type: ignore[attr-defined]
    return client


def _config(*command: str) -> ClientServerConfig:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return ClientServerConfig(server_command=[sys.executable, *command], client_factory=_make_client, server_env=env)


@pytest_lsp.fixture(config=_config("-m", "spmdfix.lsp"))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=_config(str(FIXTURES / "crashing_server.py")))
async def crashing_client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def _capabilities(*, resolve: bool = True, encodings: list[str] | None = None) -> lsp.ClientCapabilities:
    return lsp.ClientCapabilities(
        general=lsp.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
        workspace=lsp.WorkspaceClientCapabilities(
            workspace_edit=lsp.WorkspaceEditClientCapabilities(document_changes=True)
        ),
        text_document=lsp.TextDocumentClientCapabilities(
            code_action=lsp.CodeActionClientCapabilities(
                code_action_literal_support=lsp.ClientCodeActionLiteralOptions(
                    code_action_kind=lsp.ClientCodeActionKindOptions(value_set=["quickfix", "source.fixAll"])
                ),
                is_preferred_support=True,
                data_support=True,
                resolve_support=lsp.ClientCodeActionResolveOptions(properties=["edit"]) if resolve else None,
            ),
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, code_description_support=True, data_support=True
            ),
        ),
    )


async def _start(
    client: LanguageClient,
    *,
    resolve: bool = True,
    encodings: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> lsp.InitializeResult:
    return await client.initialize_session(
        lsp.InitializeParams(
            capabilities=_capabilities(resolve=resolve, encodings=encodings),
            initialization_options=options if options is not None else {"debounce_ms": 10},
        )
    )


async def _published(client: LanguageClient, uri: str, version: int) -> list[lsp.Diagnostic]:
    """The diagnostics published for `uri` at `version` (waits for them)."""

    async def wait() -> list[lsp.Diagnostic]:
        while True:
            for params in reversed(client.published):  # type: ignore[attr-defined]
                if params.uri == uri and params.version == version:
                    return list(params.diagnostics)
            await asyncio.sleep(0.005)

    return await asyncio.wait_for(wait(), TIMEOUT)


def _open(client: LanguageClient, text: str, uri: str = URI, version: int = 1) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)
        )
    )


def _change(client: LanguageClient, version: int, *changes: Any, uri: str = URI) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=list(changes),
        )
    )


async def _actions(
    client: LanguageClient,
    rng: lsp.Range,
    diagnostics: list[lsp.Diagnostic],
    only: list[str] | None = None,
    uri: str = URI,
) -> list[lsp.CodeAction]:
    result = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=lsp.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    assert result is not None
    assert all(isinstance(a, lsp.CodeAction) for a in result)
    return list(result)  # type: ignore[arg-type]


def _edits(edit: lsp.WorkspaceEdit | None, uri: str = URI) -> list[lsp.TextEdit]:
    assert edit is not None, "the action has no edit"
    if edit.document_changes:
        return [e for dc in edit.document_changes if dc.text_document.uri == uri for e in dc.edits]  # type: ignore[union-attr]
    return list((edit.changes or {}).get(uri, []))


# --- an independent client-side view of positions -----------------------------------------------------

_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_UNIT = {"utf-16": "utf-16-le", "utf-8": "utf-8", "utf-32": "utf-32-le"}
_WIDTH = {"utf-16": 2, "utf-8": 1, "utf-32": 4}


def _offset(text: str, pos: lsp.Position, encoding: str = "utf-16") -> int:
    lines = _LINES.findall(text)
    start = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line].rstrip("\r\n") if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += len(ch.encode(_UNIT[encoding])) // _WIDTH[encoding]
    return start + len(line)


def _position(text: str, offset: int, encoding: str = "utf-16") -> lsp.Position:
    before = text[:offset]
    line = len(_LINES.findall(before)) - (0 if before == "" or before.endswith(("\n", "\r")) else 1)
    if before.endswith("\r") and text[offset : offset + 1] == "\n":
        line -= 1  # between "\r" and "\n" is not a line start
    start = sum(len(x) for x in _LINES.findall(text)[:line])
    col = len(text[start:offset].encode(_UNIT[encoding])) // _WIDTH[encoding]
    return lsp.Position(line=line, character=col)


def _apply(text: str, edits: list[lsp.TextEdit], encoding: str = "utf-16") -> str:
    spans = sorted(
        ((_offset(text, e.range.start, encoding), _offset(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def _read(case: str, name: str = "input.py") -> str:
    return (GOLDEN / case / name).read_bytes().decode("utf-8")


def _case_toml(case: str) -> dict[str, Any]:
    data = tomllib.loads((GOLDEN / case / "case.toml").read_text(encoding="utf-8"))
    data.setdefault("strategy", case.split("/")[0])
    data.setdefault("unsafe_fixes", False)
    return data


def _fix_cases() -> list[str]:
    return sorted(
        f"{p.parent.parent.name}/{p.parent.name}"
        for group in ("rename", "add-axis", "strip")
        for p in (GOLDEN / group).glob("*/input.py")
    )


OTHER_SITE = """

def apply_other(x):
    return jax.shard_map(scale, mesh=mesh, in_specs=P('z'), out_specs=P('z'))(x)


def other():
    x = jnp.arange(4 * 4, dtype=jnp.float32).reshape(4, 4)
    return jax.vmap(apply_other, spmd_axis_name='z')(x)
"""


# --- tests --------------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_initialize_advertises_code_action_kinds_and_encoding(client: LanguageClient) -> None:
    """Should advertise quickfix and source.fixAll.spmdfix with resolve, and UTF-16 when nothing is offered;
    a client with notebook capabilities gets no notebook sync (which cattrs 26 could not read back)."""
    caps = _capabilities()
    caps.notebook_document = lsp.NotebookDocumentClientCapabilities(
        synchronization=lsp.NotebookDocumentSyncClientCapabilities(execution_summary_support=True)
    )
    result = await client.initialize_session(lsp.InitializeParams(capabilities=caps))
    caps = result.capabilities
    assert result.server_info is not None and result.server_info.name == "spmdfix"
    assert caps.position_encoding == lsp.PositionEncodingKind.Utf16
    assert isinstance(caps.code_action_provider, lsp.CodeActionOptions)
    assert set(caps.code_action_provider.code_action_kinds or []) == {"quickfix", FIX_ALL}
    assert caps.code_action_provider.resolve_provider is True


@pytest.mark.asyncio
async def test_diagnostics_on_open(client: LanguageClient) -> None:
    """Should publish one diagnostic per finding, with range, code, source, href, related places and data."""
    await _start(client)
    text = _read("add-axis/mesh_reshape_basic")
    findings = spmdfix.check_source(text)
    assert findings
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    assert len(diagnostics) == len(findings)
    lines = LineIndex(text)
    for diag, finding in zip(diagnostics, findings):
        assert diag.source == "spmdfix"
        assert diag.code == finding.code
        assert diag.severity == lsp.DiagnosticSeverity.Error
        assert diag.code_description is not None and diag.code_description.href == RULES[finding.code].url
        assert (diag.range.start.line, diag.range.start.character) == lines.utf16(finding.span.start)
        assert (diag.range.end.line, diag.range.end.character) == lines.utf16(finding.span.end)
        assert text[_offset(text, diag.range.start) : _offset(text, diag.range.end)] == "'x'"
        assert diag.message == finding.message
        assert [r.message for r in diag.related_information or []] == [r.message for r in finding.related]
        assert all(r.location.uri == URI for r in diag.related_information or [])
        data = diag.data
        assert isinstance(data, dict) and data["version"] == 1
        assert [f["key"] for f in data["fixes"]] == [f.key for f in finding.fixes]
        assert {"key", "transform", "title", "applicability", "node_edits"} <= set(data["fixes"][0])


UNFOLLOWED_TEXT = """\
import jax
from jax.sharding import PartitionSpec as P


def f(x, spec):
    return jax.shard_map(lambda v: v, mesh=jax.make_mesh((2,), ("x",)), in_specs=spec, out_specs=P())(x)


def g(xs, spec):
    return jax.vmap(lambda x: f(x, spec), spmd_axis_name="x")(xs)
"""


@pytest.mark.asyncio
async def test_where_the_analysis_stopped_is_shown_as_information(client: LanguageClient) -> None:
    """Should show an SPMD910 place (what `check --show-unresolved` lists) as an Information diagnostic at
    the expression, with the vmap as related information and no quick fix, so that a document without
    diagnostics means what "All checks passed!" means (`ignore = ["SPMD910"]` empties `Checked.unfollowed`)."""
    await _start(client)
    _open(client, UNFOLLOWED_TEXT)
    (diag,) = await _published(client, URI, 1)
    assert (diag.code, diag.severity, diag.source) == ("SPMD910", lsp.DiagnosticSeverity.Information, "spmdfix")
    assert UNFOLLOWED_TEXT[_offset(UNFOLLOWED_TEXT, diag.range.start) : _offset(UNFOLLOWED_TEXT, diag.range.end)] == "spec"
    assert diag.range.start.line == 5 and diag.message.startswith("the analysis of an spmd vmap stopped here")
    assert [(r.message, r.location.range.start.line) for r in diag.related_information or []] == [
        ("the vmap with `spmd_axis_name`", 9)
    ]
    assert diag.code_description is not None and diag.code_description.href == RULES["SPMD910"].url
    actions = await _actions(client, diag.range, [diag], only=["quickfix"])
    assert not actions


@pytest.mark.asyncio
async def test_quick_fixes_match_fix_source_and_golden(client: LanguageClient) -> None:
    """Should offer one action per fix, prefer auto's safe choice, and resolve to edits that give what
    `fix_source` gives for that transform (one fix applied), and the golden expected.py for the case's strategy.

    One server for every case of rename/, add-axis/ and strip/; problems are collected and reported together.
    """
    await _start(client)
    problems: list[str] = []
    known_unbuildable: list[str] = []
    checked_golden = 0
    for n, case in enumerate(_fix_cases()):
        uri = f"file:///work/golden/{case}/input.py"
        text = _read(case)
        meta = _case_toml(case)
        findings = spmdfix.check_source(text)
        _open(client, text, uri=uri, version=n + 1)
        diagnostics = await _published(client, uri, n + 1)
        # (an SPMD910 diagnostic is a place the analysis stopped, no finding and no fix: one each, as
        # `check --show-unresolved` lists them; rename/unsafe_jit_sharding_unreadable's unread jit sharding)
        records = [d for d in diagnostics if d.code == "SPMD910"]
        diagnostics = [d for d in diagnostics if d.code != "SPMD910"]
        unfollowed = len(analyse_source(text).unfollowed)
        if len(records) != unfollowed:
            problems.append(f"{case}: {len(records)} SPMD910 diagnostics for {unfollowed} places not followed")
        if len(diagnostics) != len(findings):
            problems.append(f"{case}: {len(diagnostics)} diagnostics for {len(findings)} findings")
            continue
        seen: set[str] = set()
        golden_run: spmdfix.FixResult | None = None
        for diag, finding in zip(diagnostics, findings):
            actions = await _actions(client, diag.range, [diag], uri=uri)
            fix_actions = [a for a in actions if a.kind == lsp.CodeActionKind.QuickFix and "Suppress" not in a.title]
            titles = sorted(a.title for a in fix_actions)
            want = sorted(
                f"spmdfix: {f.title}" + (" (unsafe)" if f.applicability == "unsafe" else "") for f in finding.fixes
            )
            if titles != want:
                problems.append(f"{case}: titles {titles} != {want}")
                continue
            preferred = spmdfix.choose_fix(finding, AUTO, False)
            for action, fix in zip(
                sorted(fix_actions, key=lambda a: a.title), sorted(finding.fixes, key=lambda f: f"spmdfix: {f.title}")
            ):
                want_preferred = preferred is not None and preferred.key == fix.key
                if bool(action.is_preferred) != want_preferred:
                    problems.append(f"{case}: {action.title} isPreferred={action.is_preferred}")
                if action.is_preferred and fix.applicability == "unsafe":
                    problems.append(f"{case}: unsafe {action.title} is preferred")
                if not action.diagnostics or diag not in action.diagnostics:
                    problems.append(f"{case}: {action.title} does not name its diagnostic")
                if fix.key in seen:
                    continue
                seen.add(fix.key)
                assert action.edit is None  # built lazily, in resolve
                resolved = await client.code_action_resolve_async(action)
                built = spmdfix.fix_edits_for(text, [fix])[fix.key]
                if isinstance(built, str):
                    # The API cannot build this fix (a bug outside the server): no edit, and the user is told.
                    known_unbuildable.append(f"{case}: {fix.key}: {built}")
                    if resolved.edit is not None:
                        problems.append(f"{case}: {action.title}: an edit for a fix the API cannot build")
                    if not any(built in m.message for m in client.messages):
                        problems.append(f"{case}: {action.title}: no window/showMessage saying why")
                    continue
                if resolved.edit is None:
                    problems.append(f"{case}: {action.title}: resolved without an edit")
                    continue
                fixed = _apply(text, _edits(resolved.edit, uri))
                strategy = strategy_of(fix.transform.value)
                expected = spmdfix.fix_source(text, Options(strategy=strategy, unsafe_fixes=True))
                if [f.key for f in expected.applied] == [fix.key] and fixed != expected.source:
                    problems.append(f"{case}: {action.title}: edits differ from fix_source")
                if golden_run is None:
                    golden_run = spmdfix.fix_source(
                        text, Options(strategy=strategy_of(meta["strategy"]), unsafe_fixes=meta["unsafe_fixes"])
                    )
                if [f.key for f in golden_run.applied] == [fix.key]:
                    checked_golden += 1
                    if fixed != _read(case, "expected.py"):
                        problems.append(f"{case}: {action.title}: result differs from golden expected.py")
    assert not problems, "\n".join(problems)
    assert checked_golden >= 10
    if known_unbuildable:
        warnings.warn("fixes offered that fix_edits_for cannot build:\n" + "\n".join(known_unbuildable), stacklevel=1)


@pytest.mark.asyncio
async def test_unsafe_fix_title_and_never_preferred(client: LanguageClient) -> None:
    """Should append ' (unsafe)' to an unsafe fix's title and prefer the safe one."""
    await _start(client)
    text = _read("rename/unsafe_size_mismatch")
    _open(client, text)
    diag = (await _published(client, URI, 1))[0]
    actions = await _actions(client, diag.range, [diag], only=["quickfix"])
    unsafe = [a for a in actions if a.title.endswith(" (unsafe)")]
    assert unsafe and all(not a.is_preferred for a in unsafe)
    assert unsafe[0].title.startswith("spmdfix: Rename spmd axis `'x'` to `")
    assert sum(1 for a in actions if a.is_preferred) == 1


@pytest.mark.asyncio
async def test_suppress_action_adds_noqa(client: LanguageClient) -> None:
    """Should offer `# noqa: CODE` at the end of the finding's line (edit built in resolve), once per code
    and line, merging the code into an existing directive; the edit is what `check --add-noqa` writes."""
    await _start(client)
    text = _read("strip/basic_1d_spec")
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    diag = diagnostics[0]
    actions = await _actions(client, diag.range, [diag])
    suppress = [a for a in actions if a.title == f"spmdfix: Suppress {diag.code} on this line"]
    assert len(suppress) == 1
    assert suppress[0].kind == lsp.CodeActionKind.QuickFix
    assert suppress[0].edit is None
    fixed = _apply(text, _edits((await client.code_action_resolve_async(suppress[0])).edit))
    line = diag.range.start.line
    assert fixed.splitlines()[line].endswith(f"  # noqa: {diag.code}")
    finding = spmdfix.check_source(text)[0]
    assert fixed == noqa.add_noqa(text, [finding]).text  # what `spmdfix check --add-noqa` writes
    # A line whose directive names another code gets the code merged in.
    merged = fixed.replace(f": {diag.code}", ": E501")
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=merged))
    diagnostics = await _published(client, URI, 2)
    diag = next(d for d in diagnostics if d.range.start.line == line)
    actions = await _actions(client, diag.range, [diag])
    (suppress,) = [a for a in actions if a.title == f"spmdfix: Suppress {diag.code} on this line"]
    merged_fixed = _apply(merged, _edits((await client.code_action_resolve_async(suppress)).edit))
    assert merged_fixed.splitlines()[line].endswith(f"E501, {diag.code}")


@pytest.mark.asyncio
async def test_fix_all(client: LanguageClient) -> None:
    """Should offer source.fixAll.spmdfix on a document with several findings; its edits, one per changed
    region and not the whole document, give what `fix_source` with the default options gives."""
    await _start(client)
    text = _read("rename/string_spmd_mesh3") + OTHER_SITE
    findings = spmdfix.check_source(text)
    assert len({f.key for x in findings for f in x.fixes}) >= 3
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    assert len(diagnostics) == len(findings)
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
    actions = await _actions(client, whole, [], only=["source.fixAll"])
    assert [a.kind for a in actions] == [FIX_ALL]
    resolved = await client.code_action_resolve_async(actions[0])
    edits = _edits(resolved.edit)
    expected = spmdfix.fix_source(text, Options())
    assert expected.changed
    assert _apply(text, edits) == expected.source
    assert len(edits) >= 2
    assert all(e.range.end.line - e.range.start.line < 5 for e in edits)


@pytest.mark.asyncio
async def test_broken_buffer_keeps_diagnostics_and_server_alive(client: LanguageClient) -> None:
    """Should publish nothing for a text that does not parse (the last diagnostics stay), keep answering,
    and publish again once the text parses."""
    await _start(client, options={"debounce_ms": 0})
    text = _read("strip/basic_1d_spec")
    _open(client, text)
    good = await _published(client, URI, 1)
    assert good
    broken = text + "\n\ndef half_typed(:\n"
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=broken))
    await asyncio.sleep(0.5)
    assert all(p.version != 2 for p in client.published)  # type: ignore[attr-defined]
    # The stale diagnostics' actions: no fix can be built on a broken text, the server still answers.
    actions = await _actions(client, good[0].range, good)
    assert all("Suppress" in a.title or a.kind != lsp.CodeActionKind.QuickFix for a in actions)
    with pytest.raises(JsonRpcMethodNotFound):
        await client.protocol.send_request_async("spmdfix/noSuchMethod", {})
    _change(client, 3, lsp.TextDocumentContentChangeWholeDocument(text=text))
    assert len(await _published(client, URI, 3)) == len(good)
    # A document opened broken: nothing published, nothing crashes.
    _open(client, "from jax import shard_map\nvmap(f, spmd_axis_name='i')\ndef f(:\n", uri="file:///work/example/broken.py")
    await asyncio.sleep(0.3)
    assert all(p.uri != "file:///work/example/broken.py" for p in client.published)  # type: ignore[attr-defined]
    assert await _actions(client, good[0].range, [], uri="file:///work/example/broken.py") == []


@pytest.mark.asyncio
async def test_analysis_crash_is_logged_not_fatal(crashing_client: LanguageClient) -> None:
    """Should turn a failure inside the analysis into a window/logMessage error and empty diagnostics."""
    client = crashing_client
    await _start(client)
    text = _read("strip/basic_1d_spec")
    _open(client, text + "\n# SPMDFIX_TEST_CRASH\n")
    assert await _published(client, URI, 1) == []
    errors = [m for m in client.log_messages if m.type == lsp.MessageType.Error]
    assert errors and "injected analysis failure" in errors[0].message
    _open(client, text, uri="file:///work/example/ok.py")
    assert await _published(client, "file:///work/example/ok.py", 1)


@pytest.mark.asyncio
async def test_debounce_publishes_last_version(client: LanguageClient) -> None:
    """Should analyse once after a burst of changes (debounce from initializationOptions)."""
    await _start(client, options={"debounce_ms": 300})
    text = _read("strip/basic_1d_spec")
    _open(client, text)
    await _published(client, URI, 1)
    for version in range(2, 7):
        _change(client, version, lsp.TextDocumentContentChangeWholeDocument(text=text + "#" * version))
    assert await _published(client, URI, 6)
    assert [p.version for p in client.published] == [1, 6]  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_change_after_a_quiet_debounce_is_analysed_at_once(client: LanguageClient) -> None:
    """A lone change (none for the debounce delay before it) is published without waiting for the delay; the
    burst right after it waits and is analysed once, at its last version."""
    await _start(client, options={"debounce_ms": 1500})
    text = _read("strip/basic_1d_spec")
    _open(client, text)
    await _published(client, URI, 1)
    await asyncio.sleep(1.6)
    _change(client, 2, lsp.TextDocumentContentChangeWholeDocument(text=text + "#"))
    # Well before the 1.5 s delay could have run out (a small module is analysed in milliseconds).
    assert await asyncio.wait_for(_published(client, URI, 2), 1.2)
    for version in range(3, 6):
        _change(client, version, lsp.TextDocumentContentChangeWholeDocument(text=text + "#" * version))
    assert await _published(client, URI, 5)
    assert [p.version for p in client.published] == [1, 2, 5]  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_utf16_positions_with_non_ascii_text(client: LanguageClient) -> None:
    """Should count UTF-16 code units (emoji = 2) before the finding on its line, and apply edits there."""
    await _start(client)
    text = _read("strip/basic_1d_spec")
    target = next(line for line in text.splitlines() if "in_specs=" in line)
    indent = target[: len(target) - len(target.lstrip())]
    text = text.replace(
        target, f'{indent}größe, tag = 1, "🚀🙂"  # 🙂 größe\n{indent}größe = 1; tag = "🚀"; {target.lstrip()}  # 🚀', 1
    )
    findings = spmdfix.check_source(text)
    assert findings
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    for diag, finding in zip(diagnostics, findings):
        assert diag.range.start == _position(text, finding.span.start)
        assert diag.range.end == _position(text, finding.span.end)
        line = text.splitlines()[diag.range.start.line]
        assert "🚀" in line[: line.index("in_specs")]
        assert diag.range.start.character > len(line[: line.index("in_specs")])  # code units, not code points
    diag = diagnostics[0]
    actions = await _actions(client, diag.range, [diag], only=["quickfix"])
    for action in actions:
        resolved = await client.code_action_resolve_async(action)
        fixed = _apply(text, _edits(resolved.edit))
        if "Strip" in action.title:
            assert fixed == spmdfix.fix_source(text, Options(strategy=Transform.STRIP, unsafe_fixes=True)).source
        if "Suppress" in action.title:
            assert fixed == noqa.add_noqa(text, findings[:1]).text
            assert fixed.splitlines()[diag.range.start.line].endswith(f"# noqa: {diag.code}")
    # An incremental change after the emoji lands where the client means it.
    line = diag.range.start.line
    col = _position(text, text.index("; tag")).character
    _change(
        client,
        2,
        lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=line, character=col), end=lsp.Position(line=line, character=col)),
            text="; extra = 'ü'",
        ),
    )
    new_text = text.replace("; tag", "; extra = 'ü'; tag", 1)
    after = await _published(client, URI, 2)
    assert [d.range for d in after] == [
        lsp.Range(start=_position(new_text, f.span.start), end=_position(new_text, f.span.end))
        for f in spmdfix.check_source(new_text)
    ]


@pytest.mark.asyncio
async def test_utf8_position_encoding(client: LanguageClient) -> None:
    """Should honour a client's utf-8 positionEncoding, say so in InitializeResult and count bytes."""
    result = await _start(client, encodings=["utf-8", "utf-16"])
    assert result.capabilities.position_encoding == lsp.PositionEncodingKind.Utf8
    text = (
        _read("strip/basic_1d_spec")
        .replace("def apply(", "größe = '🚀'; def apply(")
        .replace("größe = '🚀'; def", "größe = '🚀'\ndef")
    )
    target = next(line for line in text.splitlines() if "in_specs=" in line)
    text = text.replace(target, target.replace("return ", "größe = 1; return "), 1)
    findings = spmdfix.check_source(text)
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    assert [d.range.start for d in diagnostics] == [_position(text, f.span.start, "utf-8") for f in findings]
    diag = diagnostics[0]
    actions = await _actions(client, diag.range, [diag], only=["quickfix"])
    strip = next(a for a in actions if "Strip" in a.title)
    resolved = await client.code_action_resolve_async(strip)
    fixed = _apply(text, _edits(resolved.edit), "utf-8")
    assert fixed == spmdfix.fix_source(text, Options(strategy=Transform.STRIP, unsafe_fixes=True)).source


@pytest.mark.asyncio
async def test_crlf_document(client: LanguageClient) -> None:
    """Should count lines of a CRLF document as the client does, keep CRLF in edits, and apply incremental
    changes on CRLF lines and past a form feed (which is not a line end)."""
    await _start(client)
    text = (
        _read("rename/string_spmd_mesh3")
        .replace("\n", "\r\n")
        .replace("\r\n\r\n\r\ndef scale", "\r\n\x0c\r\n\r\ndef scale", 1)
    )
    findings = spmdfix.check_source(text)
    assert findings
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    assert [d.range.start for d in diagnostics] == [_position(text, f.span.start) for f in findings]
    lines = LineIndex(text)
    assert [d.range.start.line for d in diagnostics] == [lines.utf16(f.span.start)[0] for f in findings]
    diag = diagnostics[0]
    actions = await _actions(client, diag.range, [diag])
    for action in actions:
        resolved = await client.code_action_resolve_async(action) if action.edit is None else action
        fixed = _apply(text, _edits(resolved.edit))
        assert "\r\n" in fixed and "\n" not in fixed.replace("\r\n", "")
        if action.title.startswith("spmdfix: Rename"):
            assert fixed == spmdfix.fix_source(text, Options(strategy=Transform.RENAME)).source
            assert fixed == _read("rename/string_spmd_mesh3", "expected.py").replace("\n", "\r\n").replace(
                "\r\n\r\n\r\ndef scale", "\r\n\x0c\r\n\r\ndef scale", 1
            )
    # Insert a line above the finding with an incremental change on a CRLF line after the form feed line.
    ff_line = next(i for i, line in enumerate(re.split(r"\r\n", text)) if line == "\x0c")
    _change(
        client,
        2,
        lsp.TextDocumentContentChangePartial(
            range=lsp.Range(
                start=lsp.Position(line=ff_line + 1, character=0), end=lsp.Position(line=ff_line + 1, character=0)
            ),
            text="# added\r\n",
        ),
    )
    after = await _published(client, URI, 2)
    assert [d.range.start.line for d in after] == [d.range.start.line + 1 for d in diagnostics]


@pytest.mark.asyncio
async def test_stale_diagnostics_are_reanalysed(client: LanguageClient) -> None:
    """Should act on the current text when the client's diagnostics belong to an older version."""
    await _start(client, options={"debounce_ms": 5000})
    text = _read("strip/basic_1d_spec")
    _open(client, text)
    old = await _published(client, URI, 1)
    action = next(a for a in await _actions(client, old[0].range, old, only=["quickfix"]) if "Strip" in a.title)
    # Two lines above everything: the old spans are off, and the debounce keeps the diagnostics stale.
    _change(
        client,
        2,
        lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            text="# one\n# two\n",
        ),
    )
    new_text = "# one\n# two\n" + text
    expected = spmdfix.fix_source(new_text, Options(strategy=Transform.STRIP, unsafe_fixes=True)).source
    # An action made for version 1, resolved at version 2: the same fix of the current text.
    resolved = await client.code_action_resolve_async(action)
    assert _apply(new_text, _edits(resolved.edit)) == expected
    # Old diagnostics sent with a range of the new text: actions come from a fresh analysis.
    rng = lsp.Range(
        start=lsp.Position(line=old[0].range.start.line + 2, character=old[0].range.start.character),
        end=lsp.Position(line=old[0].range.end.line + 2, character=old[0].range.end.character),
    )
    fresh = await _actions(client, rng, old, only=["quickfix"])
    strip = next(a for a in fresh if "Strip" in a.title)
    assert strip.data["version"] == 2  # type: ignore[index]
    assert _apply(new_text, _edits((await client.code_action_resolve_async(strip)).edit)) == expected


@pytest.mark.asyncio
async def test_eager_edits_without_resolve_support(client: LanguageClient) -> None:
    """Should put the edit in each action when the client cannot resolve edits."""
    await _start(client, resolve=False)
    text = _read("add-axis/mesh_reshape_basic")
    _open(client, text)
    diag = (await _published(client, URI, 1))[0]
    actions = await _actions(client, diag.range, [diag])
    assert actions and all(a.edit is not None for a in actions)
    add_axis = next(a for a in actions if "Add mesh axis" in a.title)
    assert _apply(text, _edits(add_axis.edit)) == _read("add-axis/mesh_reshape_basic", "expected.py")
    # Fix-all costs a whole fix run: without resolve it is built only when asked for by kind.
    assert all(a.kind != FIX_ALL for a in actions)
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
    (fix_all,) = await _actions(client, whole, [], only=[FIX_ALL])
    assert _apply(text, _edits(fix_all.edit)) == spmdfix.fix_source(text).source


@pytest.mark.asyncio
async def test_close_clears_diagnostics(client: LanguageClient) -> None:
    await _start(client)
    _open(client, _read("strip/basic_1d_spec"))
    assert await _published(client, URI, 1)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=URI)))
    await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), TIMEOUT)
    assert list(client.diagnostics[URI]) == []


@pytest.mark.asyncio
@pytest.mark.parametrize("client_spec", ["neovim@v0.11.0", "visual-studio-code", "emacs"])
async def test_real_client_capabilities(client: LanguageClient, client_spec: str) -> None:
    """Should work with the capabilities real editors send (encodings offered, resolve support or not)."""
    result = await client.initialize_session(
        lsp.InitializeParams(capabilities=pytest_lsp.client_capabilities(client_spec))
    )
    encoding = str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding))
    # The first encoding of the client's list: neovim offers utf-8 first, eglot utf-32, VS Code none.
    assert encoding == {"neovim": "utf-8", "emacs": "utf-32"}.get(client_spec.split("@")[0], "utf-16")
    text = _read("strip/basic_1d_spec").replace("import jax\n", "import jax  # größe 🚀\n", 1)
    target = next(line for line in text.splitlines() if "in_specs=" in line)
    text = text.replace(target, target.replace("return ", "größe = '🚀'; return "), 1)
    findings = spmdfix.check_source(text)
    _open(client, text)
    diagnostics = await _published(client, URI, 1)
    assert [d.range.start for d in diagnostics] == [_position(text, f.span.start, encoding) for f in findings]
    actions = await _actions(client, diagnostics[0].range, [diagnostics[0]])
    strip = next(a for a in actions if "Strip" in a.title)
    if strip.edit is None:
        strip = await client.code_action_resolve_async(strip)
    fixed = _apply(text, _edits(strip.edit), encoding)
    assert fixed == spmdfix.fix_source(text, Options(strategy=Transform.STRIP)).source


def test_transform_values_are_strategies() -> None:
    """The quick-fix test maps a fix's transform to `strategy_of(transform.value)`."""
    assert {t.value for t in Transform} <= {str(s) for s in STRATEGIES}
