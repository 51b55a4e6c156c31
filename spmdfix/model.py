"""Plain data types shared by every stage: spans, edits, fixes, findings and per-file results.

Positions are stored one way only: a `Span` is a pair of 0-based offsets in *code points* into the module
source (a Python `str`). Conversions to 1-based rows/columns (CLI, JSON) and to UTF-16 positions (LSP) live in
`spmdfix.positions` and happen at the edges. No tree node ever crosses a module boundary: results are
picklable and can be sent between processes or stored in an LSP diagnostic's `data`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A half-open range `[start, end)` of code-point offsets into one module's source text.

    `path` names that module when it is not the one being checked (a callee, a config module the
    cross-module analysis followed into, as an absolute path); "" means the module being checked.
    """

    start: int
    end: int
    path: str = ""

    def contains(self, other: Span) -> bool:
        """True when `other` lies inside this span (bounds included)."""
        return self.start <= other.start and other.end <= self.end

    def overlaps(self, other: Span) -> bool:
        """True when the two spans share at least one code point, or are the same empty point."""
        if self.start == self.end == other.start == other.end:
            return True
        return self.start < other.end and other.start < self.end


class Applicability(enum.StrEnum):
    """How safe a fix is, with ruff's meaning of the words.

    SAFE: the measured conditions under which JAX keeps the program's values hold (docs/safety.md).
    UNSAFE: the conditions could not be proven statically, or are known not to hold for some callers;
    applied only with `--unsafe-fixes`.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"


class Transform(enum.StrEnum):
    """The transforms, in the order `--strategy auto` tries them.

    rename, add-axis and strip cure spec collisions (SPMD001/002/004/005); move-placement moves a vmapped
    input's batch dimension off an Explicit mesh axis a shard_map names (SPMD006); lift-captures cures the capture
    hazard (SPMD003); disable-check-vma sidesteps hazard H2 (SPMD007); drop-spmd-axis removes
    `spmd_axis_name` altogether (cures every hazard on an Auto mesh, but the batch is no longer placed on the
    axis: always unsafe, tried last).
    """

    RENAME = "rename"
    ADD_AXIS = "add-axis"
    STRIP = "strip"
    MOVE_PLACEMENT = "move-placement"
    LIFT_CAPTURES = "lift-captures"
    DISABLE_CHECK_VMA = "disable-check-vma"
    DROP_SPMD_AXIS = "drop-spmd-axis"


DEFAULT_NEW_AXIS = "batch"  # the mesh axis add-axis adds unless told otherwise


class Strategy(enum.StrEnum):
    """What `spmdfix fix --strategy` asks for: one transform, or `auto` (first safe one per finding)."""

    AUTO = "auto"
    RENAME = "rename"
    ADD_AXIS = "add-axis"
    STRIP = "strip"
    MOVE_PLACEMENT = "move-placement"
    LIFT_CAPTURES = "lift-captures"
    DISABLE_CHECK_VMA = "disable-check-vma"
    DROP_SPMD_AXIS = "drop-spmd-axis"


@dataclass(frozen=True, slots=True, order=True)
class Unfollowed:
    """A place on the way from a vmap with `spmd_axis_name` into code of the project that the analysis could
    not follow (an import of the project it cannot resolve, `getattr`, a callable passed in that it cannot
    know): the vmap's findings may be incomplete. Not a finding: it is counted in the closing summary and
    listed as SPMD910 (information) on request (`--show-unresolved`).

    vmap: the vmap call or decorator (in the checked module); span: the place (`Span.path` set when it lies
    in another module); what: what could not be followed, in words.
    """

    vmap: Span
    span: Span
    what: str


@dataclass(frozen=True, slots=True)
class NodeEdit:
    """One change a transform makes to the expression node that spans exactly `span`.

    kind "replace": the node is replaced by the expression `code`.
    kind "insert": `code` is inserted as a new element at `index` of the node's elements; the node is a
    tuple, list or set display, or a call (its positional arguments). `index` -1 appends.
    kind "drop-keyword": the node is a call; its keyword argument named `code` is removed.
    """

    span: Span
    kind: str
    code: str
    index: int = 0


@dataclass(frozen=True, slots=True)
class Edit:
    """A text edit: replace `span` of the original source with `content`."""

    span: Span
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A planned fix: what a transform will change, and how safe it is.

    `key` identifies the fix across findings: findings that share a fix (a rename of one vmap site, a strip
    of one shard_map) carry equal keys, and a run applies each key once. `node_edits`, planned by the
    transform (`spmdfix.fixes`), are applied with libcst (`spmdfix.codemods._apply`), which turns them into
    text `Edit`s.
    """

    transform: Transform
    key: str
    title: str
    applicability: Applicability
    reason: str
    node_edits: tuple[NodeEdit, ...]

    @property
    def edits_other_modules(self) -> bool:
        """Whether the fix edits a module other than the one checked (an edit's span names its path):
        `api.fix_modules` applies it, `api.fix_source` leaves it."""
        return any(e.span.path for e in self.node_edits)


@dataclass(frozen=True, slots=True)
class Related:
    """A place related to a finding: the spmd_axis_name argument, or a step of the call chain."""

    message: str
    span: Span


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a transform is not offered for a finding."""

    transform: Transform
    reason: str


# The refusal of every fix of a finding whose rule the settings make unfixable (`pipeline.select`).
UNFIXABLE_REASON = "the settings make {code} unfixable (`unfixable` / `fixable`)"


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic at one place of one module.

    `fixes` lists every applicable fix in `auto` preference order (rename, add-axis, strip); `refusals`
    says why the others are not offered. Tool-level diagnostics (a file that does not parse) have no
    fixes and an empty `axis`.
    """

    code: str
    name: str
    message: str
    span: Span
    axis: str = ""
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()
    refusals: tuple[Refusal, ...] = field(default=())

    def fix_for(self, transform: Transform) -> Fix | None:
        """The fix of that transform, or None when it is not offered."""
        for fix in self.fixes:
            if fix.transform == transform:
                return fix
        return None


@dataclass(frozen=True, slots=True)
class Options:
    """What a run asks for. strategy: which transform to apply; unsafe_fixes: apply unsafe ones too;
    unfixable: rule codes whose fixes are never offered (the settings' `unfixable` / `fixable`: the
    findings are reported without them, `pipeline.select`)."""

    strategy: Strategy = Strategy.AUTO
    unsafe_fixes: bool = False
    new_axis: str = DEFAULT_NEW_AXIS
    unfixable: frozenset[str] = frozenset()


def choose_fix(finding: Finding, strategy: Strategy, unsafe_fixes: bool) -> Fix | None:
    """The fix a run applies for `finding`, or None.

    auto: the first safe fix in the order rename, add-axis, strip; with `unsafe_fixes`, else the first
    unsafe one. A named strategy: that transform's fix, when it is safe or unsafe fixes are allowed.
    """
    if strategy == Strategy.AUTO:
        candidates = list(finding.fixes)
    else:
        fix = finding.fix_for(Transform(strategy.value))
        candidates = [fix] if fix is not None else []
    for fix in candidates:
        if fix.applicability == Applicability.SAFE:
            return fix
    if unsafe_fixes:
        for fix in candidates:
            return fix
    return None


def chosen_together(picks: list[tuple[Finding, Fix | None]]) -> dict[str, Fix]:
    """The fixes a run applies, by key, from each finding's own choice (`choose_fix`), judged as a set.

    A fix that removes the vmap's `spmd_axis_name` (drop-spmd-axis) cures every finding of its vmap site
    (measured on Auto meshes, docs/safety.md): once it is chosen for one finding, every other finding that
    offers the same fix takes it too, instead of another fix that would be redundant after it (a
    `check_vma=False` or a lifted operand that the plain vmap no longer needs).
    """
    drops = {fix.key for _, fix in picks if fix is not None and fix.transform == Transform.DROP_SPMD_AXIS}
    chosen: dict[str, Fix] = {}
    for finding, fix in picks:
        if fix is None:
            continue
        shared = next((x for x in finding.fixes if x.key in drops), None)
        fix = shared or fix
        chosen.setdefault(fix.key, fix)
    return chosen


def without_blocked_fixes(reported: list[Finding], suppressed: list[Finding]) -> list[Finding]:
    """The reported findings without the fixes that would also change a suppressed finding (its fixes share
    the key): `fix` never applies those, so `check` must not offer them either."""
    blocked = {fix.key for finding in suppressed for fix in finding.fixes}
    if not blocked:
        return reported
    return [replace(f, fixes=tuple(x for x in f.fixes if x.key not in blocked)) for f in reported]
