"""Shared pytest setup: the `--update-golden` flag, the hypothesis profiles of the two lanes, a results cache
of each test's own, and the check that a test which starts a process says so with a marker."""

from __future__ import annotations

import sys

import pytest
from hypothesis import settings

# The lanes' hypothesis profiles (tests/README.md), chosen with `--hypothesis-profile`: "full", the default,
# runs every test's own example count; "fast", the contributors' lane, at most 10 of them
# (test_robustness.examples). Same strategies, same assertions: only fewer examples.
settings.register_profile("full")
settings.register_profile("fast", max_examples=10)
settings.load_profile("full")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden expected.py and findings.txt from the tool's output (review the diff!).",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(autouse=True)
def _own_results_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's `check` runs get a results cache of their own (`spmdfix.cache`), outside the tree under
    test: a test that patches the analysis must not be served another test's results, nor leave a cache in
    the repository."""
    monkeypatch.setenv("SPMDFIX_CACHE_DIR", str(tmp_path_factory.mktemp("spmdfix-cache")))


# --- processes: the fast lane (tests/README.md) leaves out every test that starts one -----------------------

# Audit events (the `sys.addaudithook` table of the Python docs) raised when a process is started: a
# subprocess, a fork (multiprocessing's workers on Linux), an exec, a spawn, a shell command.
_PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "pty.spawn"}
)
# Markers of the tests that may start processes: `e2e` says so; the language server and the JAX oracle run in
# processes of their own and carry their own markers.
_PROCESS_MARKERS = ("e2e", "lsp", "runtime")


class _Processes:
    """What the running test started: one audit event each, recorded while `watching`."""

    watching = False
    started: list[str] = []


def _audit(event: str, args: tuple) -> None:
    if _Processes.watching and event in _PROCESS_EVENTS:
        _Processes.started.append(f"{event} {args[1]}" if event == "subprocess.Popen" else event)


sys.addaudithook(_audit)  # for the life of this process: an audit hook cannot be removed


@pytest.fixture(autouse=True)
def _a_process_is_marked(request: pytest.FixtureRequest):
    """Fails (in teardown) a test that started a process without an `e2e`, `lsp` or `runtime` marker, so the
    fast lane (`-m "not runtime and not lsp and not e2e"`) stays in this process. Processes started by
    module-scoped fixtures, or through multiprocessing's spawn start method (which raises no audit event), are
    not seen."""
    _Processes.started, _Processes.watching = [], True
    yield
    started, _Processes.started, _Processes.watching = _Processes.started, [], False
    if started and not any(request.node.get_closest_marker(name) for name in _PROCESS_MARKERS):
        pytest.fail(f"started a process without an e2e marker (pyproject.toml): {started[:3]}", pytrace=False)
