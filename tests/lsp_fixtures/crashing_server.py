"""The spmdfix language server with an analysis that raises on a marker, to test that the server survives it.

Started by tests/test_lsp.py as a subprocess; not a test module.
"""

from __future__ import annotations

import spmdfix.api
from spmdfix import lsp

CRASH_MARKER = "SPMDFIX_TEST_CRASH"
_real_analyse_source = spmdfix.api.analyse_source


def _analyse_source(source: str, *args: object, **kwargs: object) -> spmdfix.api.Analysis:
    if CRASH_MARKER in source:
        raise RuntimeError("injected analysis failure")
    return _real_analyse_source(source, *args, **kwargs)


spmdfix.api.analyse_source = _analyse_source  # type: ignore[assignment]

if __name__ == "__main__":
    lsp.serve()
