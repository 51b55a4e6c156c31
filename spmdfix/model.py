"""Plain data types shared by every stage: spans, edits, fixes, findings and per-file results.

Positions are stored one way only: a `Span` is a pair of 0-based offsets in *code points* into the module
source (a Python `str`). Conversions to 1-based rows/columns (CLI, JSON) and to UTF-16 positions (LSP) live in
`spmdfix.positions` and happen at the edges. No tree node ever crosses a module boundary: results are
picklable and can be sent between processes or stored in an LSP diagnostic's `data`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import field, replace
from typing import Final, Literal, Union

from spmdfix.perf import frozen


@frozen(slots=True, order=True)
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
    `spmd_axis_name` altogether (cures every hazard on an Auto mesh, where it is safe: values kept, measured; the
    batch is no longer placed on the axis, which its reason says: tried last, so taken only when no fix before
    it is safe).
    """

    RENAME = "rename"
    ADD_AXIS = "add-axis"
    STRIP = "strip"
    MOVE_PLACEMENT = "move-placement"
    LIFT_CAPTURES = "lift-captures"
    DISABLE_CHECK_VMA = "disable-check-vma"
    DROP_SPMD_AXIS = "drop-spmd-axis"


DEFAULT_NEW_AXIS = "batch"  # the mesh axis add-axis adds unless told otherwise


AUTO: Final = "auto"
# What `spmdfix fix --strategy` asks for: one transform, or "auto" (per finding, the first safe fix in the
# order of `Transform`, else, with unsafe fixes allowed, the first unsafe one: `choose_fix`).
Strategy = Union[Transform, Literal["auto"]]
STRATEGIES: tuple[Strategy, ...] = (AUTO, *Transform)  # the choices of `--strategy` and `strategy =`, in order


def strategy_of(text: str) -> Strategy:
    """The strategy `text` names (one of `STRATEGIES`). Raises ValueError for any other text."""
    return AUTO if text == AUTO else Transform(text)


@frozen(slots=True, order=True)
class Unfollowed:
    """A place on the way from a vmap with `spmd_axis_name` (or a plain vmap whose input's placement matters:
    SPMD006/008) into code of the project that the analysis could not follow (an import of the project it cannot resolve, `getattr`, a callable passed in that it cannot
    know): the vmap's findings may be incomplete. Not a finding: it is counted in the closing summary and
    listed as SPMD910 (information) on request (`--show-unresolved`).

    vmap: the vmap call or decorator (in the checked module); span: the place (`Span.path` set when it lies
    in another module); what: what could not be followed, in words; spmd: whether the vmap passes
    `spmd_axis_name` (False: a plain vmap, over an input placed on Explicit mesh axes or one whose placement
    could not be read: `analysis.placement`), which the record's words name; callable_unknown: the place is
    where the vmap's callable itself was lost, before the analysis entered any function (`jax.vmap(layer)` with
    `layer` a copy `dataclasses.replace` makes in another module): like a place inside the vmap call, it says
    nothing of which shard_maps the vmap reaches (`reaching.at_start`); importers_unsearched: the record stands
    for the vmaps of the modules importing the checked one, which a partial run did not search (`what` says
    why: the project root holds more than `project_graph.MAX_FILES` files; `reaching.reached`): `span` and
    `vmap` are both the start of the checked module, and `what` is the whole message.
    """

    vmap: Span
    span: Span
    what: str
    spmd: bool = True
    callable_unknown: bool = False
    importers_unsearched: bool = False


class EditKind(enum.StrEnum):
    """What a `NodeEdit` does to its node. A StrEnum: the value is written in a language server diagnostic's
    `data` and read back (`lsp.data`), and pickled with a fix in the cache.

    REPLACE: the node is replaced by the expression `code`.
    INSERT: `code` is inserted as a new element at `index` of the node's elements; the node is a tuple, list
    or set display, or a call (its positional arguments). `index` -1 appends.
    DROP_KEYWORD: the node is a call; its keyword argument named `code` is removed.
    PARAM: a plain positional parameter `code` is appended to a function's parameters; the node is a lambda,
    or the name of a `def` (whose parameters the text edit then covers).
    """

    REPLACE = "replace"
    INSERT = "insert"
    DROP_KEYWORD = "drop-keyword"
    PARAM = "param"


@frozen(slots=True)
class NodeEdit:
    """One change a transform makes to the expression node that spans exactly `span` (`EditKind` says which)."""

    span: Span
    kind: EditKind
    code: str
    index: int = 0


@frozen(slots=True)
class Edit:
    """A text edit: replace `span` of the original source with `content`."""

    span: Span
    content: str


class SiteKind(enum.StrEnum):
    """What a `SiteId` names. VMAP: a vmap call or decorator (with spmd_axis_name, or a plain vmap over a placed
    input); SHARD_MAP: a shard_map construction; CONSTRAINT: a `with_sharding_constraint` call (a strip of its
    spec); RESHARD: a `jax.sharding.reshard` call inside the vmapped function (a strip of its spec); PLACEMENT:
    the `jax.device_put` that places a plain vmap's input (move-placement's site). A StrEnum:
    its value is part of a fix key's text (`FixId.__str__`)."""

    VMAP = "vmap"
    SHARD_MAP = "shard_map"
    CONSTRAINT = "constraint"
    RESHARD = "reshard"
    PLACEMENT = "placement"


# (eq and hash: ids are compared and kept in sets; no ordering, whose generated methods would be compiled
# when the module is imported, on the serial start of a run: bench/README.md, "The imports before the fork")
@frozen(slots=True)
class SiteId:
    """One place of the program a fix is planned for: its kind, where its node starts (a code-point offset into
    its module's text, as `Span.start`) and that module (`path`, "" for the module checked, as `Span.path`).

    The analysis computes it from the text it analyses (`analysis.module_model.ModuleModel.site`), so every
    pass of `api.fix_source` has the ids of its own text; a site of an earlier pass is found in a later text
    by `moved`, through the edits the pass applied (the sites the edits move are the ones after them).
    """

    kind: SiteKind
    start: int
    path: str = ""

    def __str__(self) -> str:
        """`shard_map@120`, `vmap@7@/abs/path.py` (another module's), `120` (a placement: the form its fix
        key always had)."""
        head = str(self.start) if self.kind is SiteKind.PLACEMENT else f"{self.kind}@{self.start}"
        return head + (f"@{self.path}" if self.path else "")

    def moved(self, edits: Iterable[Edit]) -> SiteId:
        """Where this site is once `edits` (disjoint edits of the text it was taken in) are applied: later by
        the length each edit ending at or before it adds; edits of another module leave it where it is."""
        shift = sum(
            len(e.content) - (e.span.end - e.span.start)
            for e in edits
            if e.span.path == self.path and e.span.end <= self.start
        )
        return replace(self, start=self.start + shift) if shift else self


@frozen(slots=True)
class FixId:
    """What a fix is, as a value: its transform, the site it is planned for, and (strip) the spmd axes it removes.

    Findings that share a fix (a rename of one vmap site, a strip of one shard_map's spmd axes) carry fixes
    with equal ids, and a run applies each id once. `str()` gives the fix's key, the text the language
    server's diagnostic `data`, the JSON report's edit lookup and the worker/cache outcomes carry (the form it
    always had: `strip:shard_map@120:x,y`, `rename:vmap@7`, `move-placement:300`); `parse` reads one back.
    axes: sorted; None for the transforms whose identity is their site alone (all but strip).
    """

    transform: Transform
    site: SiteId
    axes: tuple[str, ...] | None = None

    def __str__(self) -> str:
        axes = "" if self.axes is None else ":" + ",".join(self.axes)
        return f"{self.transform}:{self.site}{axes}"

    @classmethod
    def parse(cls, text: str) -> FixId:
        """The id whose `str()` is `text`: only where a key comes back from outside (a diagnostic's `data`).

        Raises ValueError for a text no id gives. (Axis names holding `:` or `,` would not read back; paths may
        hold any character.)
        """
        name, sep, rest = text.partition(":")
        transform = Transform(name)  # ValueError for an unknown transform
        if not sep:
            raise ValueError(f"not a fix key: {text!r}")
        axes = None
        if transform is Transform.STRIP:
            rest, sep, listed = rest.rpartition(":")
            if not sep:
                raise ValueError(f"not a strip fix key (no axes): {text!r}")
            axes = tuple(listed.split(",")) if listed else ()
        kind_text, at, start_text = rest.partition("@")
        if at and kind_text in (SiteKind.VMAP, SiteKind.SHARD_MAP, SiteKind.CONSTRAINT, SiteKind.RESHARD):
            kind, (start_text, _, path) = SiteKind(kind_text), start_text.partition("@")
        else:
            kind, (start_text, _, path) = SiteKind.PLACEMENT, rest.partition("@")
        if not start_text.isdigit():
            raise ValueError(f"not a fix key (no site offset): {text!r}")
        return cls(transform, SiteId(kind, int(start_text), path), axes)

    def moved(self, edits: Iterable[Edit]) -> FixId:
        """This id with its site `moved` through `edits`."""
        site = self.site.moved(edits)
        return self if site is self.site else replace(self, site=site)


@frozen(slots=True)
class Fix:
    """A planned fix: what a transform will change, and how safe it is.

    id: what the fix is (`FixId`: findings that share a fix carry equal ids, a run applies each once).
    sites: the shard_map and vmap sites whose construction it edits (its own site, and for rename and add-axis
    the shard_maps whose `axis_names` they extend): the site-level judgments ask which reached shard_maps a
    fix changes (`plan.judgments.other_callers`). isolation: an isolation group, as ruff's `IsolationLevel`:
    two fixes of one group are never applied in the same pass, even when their edits do not overlap (the next
    pass plans the other again on the new text); None when only overlapping edits keep fixes apart.
    placement: where the batch is placed before and after the fix, one sentence (`spmdfix.fixes.placement`):
    the planner's own for rename and add-axis, filled in for the others once the site is judged; `reason`
    ends with it (after "; ", so the claim before it stays the headline).
    `node_edits`, planned by the transform (`spmdfix.fixes`), are applied with libcst
    (`spmdfix.codemods._apply`), which turns them into text `Edit`s.
    """

    id: FixId
    title: str
    applicability: Applicability
    reason: str
    node_edits: tuple[NodeEdit, ...]
    sites: frozenset[SiteId] = frozenset()
    isolation: SiteId | None = None
    placement: str = ""

    @property
    def transform(self) -> Transform:
        return self.id.transform

    @property
    def key(self) -> str:
        """The id's text (`FixId.__str__`): what maps of a fix's edits carry across processes and into reports."""
        return str(self.id)

    @property
    def edits_other_modules(self) -> bool:
        """Whether the fix edits a module other than the one checked (an edit's span names its path):
        `api.fix_modules` applies it, `api.fix_source` leaves it."""
        return any(e.span.path for e in self.node_edits)


@frozen(slots=True)
class Related:
    """A place related to a finding: the spmd_axis_name argument, or a step of the call chain."""

    message: str
    span: Span


@frozen(slots=True)
class Refusal:
    """Why a transform is not offered for a finding."""

    transform: Transform
    reason: str


# The transforms that move the batch to other mesh axes (or off every axis) when they keep the values: the
# setting `layout-changing-fixes = "unsafe"` makes their safe fixes unsafe (`pipeline.select`). (move-placement
# moves it too, and is always unsafe.)
LAYOUT_CHANGING = frozenset({Transform.RENAME, Transform.ADD_AXIS, Transform.DROP_SPMD_AXIS})
LAYOUT_REASON = 'the settings make layout-changing fixes unsafe (`layout-changing-fixes = "unsafe"`)'

# The refusal of every fix of a finding whose rule the settings make unfixable (`pipeline.select`).
UNFIXABLE_REASON = "the settings make {code} unfixable (`unfixable` / `fixable`)"


@frozen(slots=True)
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


@frozen(slots=True)
class Options:
    """What a run asks for. strategy: which transform to apply; unsafe_fixes: apply unsafe ones too;
    unfixable: rule codes whose fixes are never offered (the settings' `unfixable` / `fixable`: the
    findings are reported without them, `pipeline.select`); layout_changing_fixes: "unsafe" makes the fixes
    that move the batch (`LAYOUT_CHANGING`) unsafe, the setting `layout-changing-fixes` (`pipeline.select`);
    per_file_ignores: the settings' `per-file-ignores`, each glob (absolute, "!" negating it) with the codes
    it ignores (`settings.Settings.ignores_by_glob`), for the other modules a finding lies in: a collision
    found from train.py at a spec of model.py is not reported when model.py's entry ignores its code
    (`pipeline.select`)."""

    strategy: Strategy = AUTO
    unsafe_fixes: bool = False
    new_axis: str = DEFAULT_NEW_AXIS
    unfixable: frozenset[str] = frozenset()
    layout_changing_fixes: str = "safe"
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()



def choose_fix(finding: Finding, strategy: Strategy, unsafe_fixes: bool) -> Fix | None:
    """The fix a run applies for `finding`, or None.

    auto: the first safe fix in the order rename, add-axis, strip; with `unsafe_fixes`, else the first
    unsafe one. A named strategy: that transform's fix, when it is safe or unsafe fixes are allowed.
    """
    if strategy == AUTO:
        candidates = list(finding.fixes)
    else:
        fix = finding.fix_for(strategy)
        candidates = [fix] if fix is not None else []
    for fix in candidates:
        if fix.applicability == Applicability.SAFE:
            return fix
    if unsafe_fixes:
        for fix in candidates:
            return fix
    return None


_LEAVES = frozenset({str, int, float, bool, type(None)})  # (what `reframed` keeps as it is, asked first)


def reframed(value, analysed: str, seen_from: str):
    """`value` (a finding, a fix, a span, or any value of this module's types, tuples and frozensets of them)
    as the module at `seen_from` sees it, from the analysis of the module at `analysed` (both absolute
    paths): a path of `seen_from` becomes "" (the module checked) and "" becomes `analysed`; other paths stay.
    A partial run reports an importer's finding located in the checked module this way (`spmdfix.reaching`)."""

    def path(p: str) -> str:
        return "" if p == seen_from else (analysed if p == "" else p)

    def walk(v):
        if v.__class__ in _LEAVES:
            return v
        if isinstance(v, Span):
            new = path(v.path)
            return v if new == v.path else replace(v, path=new)
        if isinstance(v, SiteId):
            new = path(v.path)
            return v if new == v.path else replace(v, path=new)
        if isinstance(v, (tuple, frozenset)):
            # (the value itself when no element changes: a caller tells a moved value by identity, and a
            # dataclass holding an unchanged tuple is not copied)
            pairs = [(x, walk(x)) for x in v]
            if all(new is old for old, new in pairs):
                return v
            return type(v)(new for _, new in pairs) if isinstance(v, frozenset) else tuple(new for _, new in pairs)
        if isinstance(v, (Finding, Fix, FixId, NodeEdit, Edit, Related, Refusal, Unfollowed)):
            changes = {}
            for name in v.__dataclass_fields__:
                old = getattr(v, name)
                new = walk(old)
                if new is not old:
                    changes[name] = new
            return replace(v, **changes) if changes else v
        return v

    return walk(value)
