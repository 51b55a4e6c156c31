"""The quote style of a module's string literals: the quote a string literal a fix writes there takes when
nothing beside it says (ruff's `Stylist::quote`, which takes the first string's; here the style most of the
module's one-line strings are written in, so that one stray `'x'` does not decide a module of `"..."`).

A triple-quoted string (a docstring) says nothing: both styles write them with double quotes. With no one-line
string, or as many of each, the quote is `"`: what ruff's formatter and Black write, so a formatter run after a
fix leaves the literal as it is.
"""

from __future__ import annotations

import io
import tokenize

DOUBLE = '"'
SINGLE = "'"
_STARTS = (tokenize.STRING, getattr(tokenize, "FSTRING_START", tokenize.STRING))


def module_quote(source: str) -> str:
    """`'` when most one-line string literals of `source` (f-strings included) are single-quoted, else `"`.

    The stdlib tokenizer reads the strings (no parser of our own); a source it cannot tokenize to the end
    counts the strings before the error."""
    counts = {SINGLE: 0, DOUBLE: 0}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in _STARTS:
                quote = _quote_of(token.string)
                if quote is not None:
                    counts[quote] += 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return SINGLE if counts[SINGLE] > counts[DOUBLE] else DOUBLE


def _quote_of(text: str) -> str | None:
    """The quote of a string token's text (its prefix skipped), or None for a triple-quoted one."""
    body = text.lstrip("rRbBuUfF")
    if body[:1] not in (SINGLE, DOUBLE) or body[:3] == body[0] * 3:
        return None
    return body[0]
