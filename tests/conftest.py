"""Shared pytest setup: the `--update-golden` flag, the hypothesis profiles of the two lanes, and a results
cache of each test's own."""

from __future__ import annotations

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

