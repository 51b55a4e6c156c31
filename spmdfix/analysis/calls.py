"""Reading a call's arguments by parameter: the one place that knows keyword-or-position binding."""

from __future__ import annotations

import ast


def argument(call: ast.Call, position: int | None, keyword: str) -> ast.AST | None:
    """The argument bound to a parameter given by `keyword`, or by `position` (0-based; None for a
    keyword-only parameter). None when absent, or when a `*args` before that position hides it."""
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if position is None or position >= len(call.args):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    return call.args[position]


def keywords(call: ast.Call) -> dict[str, ast.AST]:
    """The call's keyword arguments by name (`**kw` left out)."""
    return {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
