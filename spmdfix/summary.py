"""The closing lines of a run: ruff's "Found N errors." line, `--statistics`, and the summary on stderr."""

from __future__ import annotations

from collections.abc import Mapping

from spmdfix.rules import RULES


def summary_line(total: int, fixable: int, hidden: int, unfollowed: int = 0, listed: bool = False) -> str:
    """The closing line of a text report, in ruff's words; `unfollowed`: how many vmaps lead to code the
    analysis could not follow (SPMD910 enabled). "All checks passed!" is a claim that every vmap was followed
    to the end, so with none found but some not followed the line says that instead (the exit status stays 0:
    SPMD910 is information); `listed`: the report above lists those places (`--show-unresolved`), so the
    line does not point to the flag again."""
    if total == 0:
        if unfollowed:
            vmaps = _count(unfollowed, "vmap")
            return f"No errors found where followed; {vmaps} could not be followed to the end{_where_hint(listed)}."
        return "All checks passed!"
    parts = [f"Found {total} error{'s' if total != 1 else ''}."]
    if fixable:
        parts.append(f"[*] {fixable} fixable with `spmdfix fix`.")
    if hidden:
        parts.append(f"({hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with `--unsafe-fixes`.)")
    return " ".join(parts)


def statistics_lines(counts: Mapping[str, int]) -> list[str]:
    """`N  CODE  name` per code, most frequent first (ruff's `--statistics`)."""
    if not counts:
        return []
    width = max(len(str(n)) for n in counts.values())
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [f"{n:>{width}}  {code}  {RULES[code].name}" for code, n in ordered]


_LEFT_NAMED = 3  # at most this many files are named where findings are left; more are counted


def _left_in(files: tuple[str, ...], shown_by: tuple[str, ...] = ()) -> str:
    """` in a.py, b.py (`spmdfix check a.py b.py` shows them)`: where a fix run left its findings; `shown_by`:
    the files whose check shows them, when not those (a notebook's finding in a module it imports: checking
    that module alone shows it without the notebook's fixes, `reaching.notebook_importer_alone`)."""
    if not files:
        return ""
    import shlex

    if len(files) <= _LEFT_NAMED:
        command = "spmdfix check " + " ".join(shlex.quote(f) for f in shown_by or files)
        return f" in {', '.join(files)} (`{command}` shows them)"
    named = ", ".join(files[:_LEFT_NAMED])
    more = len(files) - _LEFT_NAMED
    return f" in {len(files)} files: {named} and {more} more (`spmdfix check` shows them)"


def _where_hint(listed: bool, flag: str = "`--show-unresolved`") -> str:
    """` (FLAG lists where)` after the count of vmaps not followed, or nothing when the report has just listed
    them (newuser15: `check --show-unresolved` ended with the hint to pass the flag it was given)."""
    return "" if listed else f" ({flag} lists where)"


def _count(n: int, noun: str, plural: str = "") -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _vmap_kinds(spmd: int, plain: int) -> str:
    """`N spmd vmaps`, `M plain vmaps`, or both joined by `and` (the kinds of vmap a count holds)."""
    counts = [_count(spmd, "spmd vmap")] if spmd else []
    counts += [_count(plain, "plain vmap")] if plain else []
    return " and ".join(counts)


def run_summary(
    scanned: int,
    parsed: int,
    skipped: int,
    findings: int,
    suppressed: int,
    unsafe_left: int,
    errors: int,
    applied: Mapping[str, int] | None = None,
    applied_label: str = "fixes applied",
    unfollowed: int = 0,
    left_in: tuple[str, ...] = (),
    baselined: int = 0,
    unfollowed_plain: int = 0,
    left_shown_by: tuple[str, ...] = (),
    listed: bool = False,
) -> str:
    """The closing line a run prints on stderr; `applied` (fixes applied per transform) for `fix`;
    `unfollowed`: how many vmaps lead to code the analysis could not follow (said when not 0), of which
    `unfollowed_plain` are plain vmaps (without `spmd_axis_name`: said apart);
    `left_in`: for `fix`, the files whose findings are left (said with the command that shows them: a check of
    `left_shown_by`, else of those files);
    `baselined`: findings a baseline left out (`check --baseline`);
    `listed`: the report of this run lists the places not followed (`check --show-unresolved`): the count is
    said without the hint to list them."""
    head = f"{_count(scanned, 'file')} scanned, {parsed} parsed" + (f", {skipped} skipped" if skipped else "")
    parts = [head]
    if applied is not None:
        done = ", ".join(f"{t} {n}" for t, n in applied.items() if n) or "none"
        parts.append(f"{applied_label}: {done}")
    found = _count(findings, "finding") + (" left" if applied is not None else "")
    aside = [f"{suppressed} suppressed"] if suppressed else []
    aside += [f"{baselined} baselined"] if baselined else []
    parts.append(found + (f" ({', '.join(aside)})" if aside else "") + _left_in(left_in if findings else (), left_shown_by))
    if unsafe_left:
        parts.append(f"{_count(unsafe_left, 'unsafe fix', 'unsafe fixes')} left (--unsafe-fixes)")
    # ("file errors": files not analysed (an internal error) or not written; the findings are what ruff's "Found
    # N errors." above counts, SPMD900 and SPMD901 among them, as ruff counts its syntax errors and E902)
    parts.append(_count(errors, "file error"))
    if unfollowed:
        vmaps = _vmap_kinds(unfollowed - unfollowed_plain, unfollowed_plain)
        flag = "`--show-unresolved`" if applied is None else "`spmdfix check --show-unresolved`"
        parts.append(f"{vmaps} could not be followed to the end{_where_hint(listed, flag)}")
    return "spmdfix: " + "; ".join(parts) + "."
