"""Unified diffs of a fix, as `fix --diff` prints them and `git apply` / `patch -p1` accept them."""

from __future__ import annotations

import re

_PATCH_LINE = r"[^\n]*\n|[^\n]+\Z"  # compiled where first used (`re`'s cache): `check` shows no diff
NO_NEWLINE = "\\ No newline at end of file\n"


def _patch_lines(text: str) -> list[str]:
    """Lines as `patch` sees them: ended by "\\n" only (str.splitlines would also split at form feeds)."""
    return re.findall(_PATCH_LINE, text)


def unified_diff(display: str, old: str, new: str) -> str:
    """A `patch -p1` applicable diff (`a/<path>`, `b/<path>`), with "\\ No newline at end of file" kept."""
    import difflib  # only for diffs: `check` never shows one

    old_lines = _patch_lines(old)
    new_lines = _patch_lines(new)
    out = []
    for line in difflib.unified_diff(old_lines, new_lines, f"a/{display}", f"b/{display}"):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\n") + "\n")
            continue
        out.append(line)
        if not line.endswith("\n"):
            # difflib leaves the last line of a file without a final newline unterminated.
            out[-1] = line + "\n"
            out.append(NO_NEWLINE)
    return "".join(out)


def file_diff(display: str, old: bytes, new: bytes) -> bytes:
    """`unified_diff` of a file's bytes as read (`old`) and as `fix` writes them (`new`): what `fix --diff`
    prints, so that `git apply` and `patch -p1` (which match bytes) apply it to the file on disk. Its lines are
    the file's own bytes: in its encoding (a latin-1 module's "\xe9" stays one byte, not UTF-8's two) and with
    a UTF-8 BOM at the start of line 1, where the file has it (breaker20: a diff of the decoded text did not
    `git apply` to either). The path is written in UTF-8, as git writes paths."""

    def as_text(raw: bytes) -> str:
        # Each byte one character and back (difflib.diff_bytes does the same): the lines are compared as bytes.
        return raw.decode("ascii", "surrogateescape")

    named = as_text(display.encode("utf-8", "surrogateescape"))
    return unified_diff(named, as_text(old), as_text(new)).encode("ascii", "surrogateescape")
