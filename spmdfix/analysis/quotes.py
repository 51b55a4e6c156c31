"""The quote style of a module's string literals: the quote a string literal a fix writes there takes when
nothing beside it says (ruff's `Stylist::quote`, which takes the first string's; here the style most of the
module's one-line strings are written in, so that one stray `'x'` does not decide a module of `"..."`).

A triple-quoted string (a docstring) says nothing: both styles write them with double quotes. With no one-line
string, or as many of each, the quote is `"`: what ruff's formatter and Black write, so a formatter run after a
fix leaves the literal as it is.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from spmdfix.analysis.bindings import child_fields

DOUBLE = '"'
SINGLE = "'"


def module_quote(tree: ast.Module, text_at: Callable[[ast.AST], str]) -> str:
    """`'` when most one-line string literals of the module (f-strings and bytes included) are single-quoted,
    else `"`. `text_at(node)`: the source from where `node` starts (a few characters are enough)."""
    return majority(text_at(node) for node in string_literals(tree))


def string_literals(tree: ast.Module) -> list[ast.AST]:
    """Each string or bytes literal of the tree once: a constant, or an f-string as a whole (not its parts).

    One walk with an explicit stack over the fields that hold nodes (`bindings.child_fields`), not entering
    an f-string: `ast.walk` took 2.7 times as long (76 ms of CPU on jax's 12,600-line pjit_test.py)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = [tree]
    pop, push, node_type = stack.pop, stack.append, ast.AST
    while stack:
        node = pop()
        kind = node.__class__
        if kind is ast.Constant:
            if node.value.__class__ in (str, bytes):  # type: ignore[attr-defined]
                found.append(node)
            continue
        if kind is ast.JoinedStr:
            found.append(node)
            continue
        for name in child_fields(kind):
            value = getattr(node, name, None)
            if value.__class__ is list:
                for child in value:  # type: ignore[union-attr]
                    if isinstance(child, node_type):
                        push(child)
            elif isinstance(value, node_type):
                push(value)
    return found


def majority(texts: Iterable[str]) -> str:
    """The quote most of the literals whose source starts the `texts` are written in (`"` on a tie or none)."""
    counts = {SINGLE: 0, DOUBLE: 0}
    for text in texts:
        quote = quote_of(text)
        if quote is not None:
            counts[quote] += 1
    return SINGLE if counts[SINGLE] > counts[DOUBLE] else DOUBLE


def quote_of(text: str) -> str | None:
    """The quote of a string literal's source (its prefix skipped), or None for a triple-quoted one."""
    body = text.lstrip("rRbBuUfF")
    if body[:1] not in (SINGLE, DOUBLE) or body[:3] == body[0] * 3:
        return None
    return body[0]
