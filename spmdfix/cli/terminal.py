"""The terminal around a command: the byte streams under stdin/stdout, and whether they are terminals.

Functions, not constants, so that tests can stand in for a terminal (`monkeypatch.setattr`).
"""

from __future__ import annotations

import sys


def binary(stream):
    """The byte stream under a text stream (stdin/stdout), or the stream itself when it has none."""
    return getattr(stream, "buffer", stream)


def stdin_is_tty() -> bool:
    return sys.stdin.isatty()


def stderr_is_tty() -> bool:
    return sys.stderr.isatty()
