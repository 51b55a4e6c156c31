"""Fix identity as a value: `model.SiteId` and `model.FixId`, their text at the edges, the sites of a fix, the
multi-pass chain rule carried through edits that move a site, and isolation groups."""

from __future__ import annotations

import dataclasses
import textwrap

import pytest
from golden import cases

from spmdfix import fix_engine
from spmdfix.api import Options, check_source, fix_source
from spmdfix.lsp.data import diagnostic_data, finding_from_json, fix_from_json, fix_to_json
from spmdfix.model import (
    Applicability,
    Edit,
    EditKind,
    Fix,
    FixId,
    NodeEdit,
    SiteId,
    SiteKind,
    Span,
    Transform,
)

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = jax.make_mesh((2, 4), ('x', 'y'))
"""

# Every shape of key a planner writes, with paths holding the separators the text uses.
KEYS = [
    FixId(Transform.RENAME, SiteId(SiteKind.VMAP, 7)),
    FixId(Transform.ADD_AXIS, SiteId(SiteKind.VMAP, 0)),
    FixId(Transform.DROP_SPMD_AXIS, SiteId(SiteKind.VMAP, 1234)),
    FixId(Transform.STRIP, SiteId(SiteKind.SHARD_MAP, 120), ("x",)),
    FixId(Transform.STRIP, SiteId(SiteKind.SHARD_MAP, 120), ("data", "model")),
    FixId(Transform.STRIP, SiteId(SiteKind.SHARD_MAP, 120, "/abs/lib:v2/layers@1.py"), ("x", "y")),
    FixId(Transform.STRIP, SiteId(SiteKind.CONSTRAINT, 88), ("x",)),
    FixId(Transform.STRIP, SiteId(SiteKind.SHARD_MAP, 5), ()),
    FixId(Transform.LIFT_CAPTURES, SiteId(SiteKind.SHARD_MAP, 42, "/p/m.py")),
    FixId(Transform.DISABLE_CHECK_VMA, SiteId(SiteKind.SHARD_MAP, 42)),
    FixId(Transform.MOVE_PLACEMENT, SiteId(SiteKind.PLACEMENT, 300)),
]


def test_a_fix_key_is_the_text_it_always_was() -> None:
    """`str(FixId)` is the key the language server's data, the JSON report's edit lookup and the worker and
    cache outcomes carried when keys were strings (outputs stay byte-identical)."""
    assert [str(k) for k in KEYS] == [
        "rename:vmap@7",
        "add-axis:vmap@0",
        "drop-spmd-axis:vmap@1234",
        "strip:shard_map@120:x",
        "strip:shard_map@120:data,model",
        "strip:shard_map@120@/abs/lib:v2/layers@1.py:x,y",
        "strip:constraint@88:x",
        "strip:shard_map@5:",
        "lift-captures:shard_map@42@/p/m.py",
        "disable-check-vma:shard_map@42",
        "move-placement:300",
    ]


@pytest.mark.parametrize("fix_id", KEYS, ids=str)
def test_a_fix_key_reads_back_as_its_id(fix_id: FixId) -> None:
    assert FixId.parse(str(fix_id)) == fix_id


@pytest.mark.parametrize("text", ["", "rename", "bogus:vmap@1", "rename:vmap@", "rename:vmap@x", "strip:shard_map@1"])
def test_a_text_no_id_gives_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        FixId.parse(text)


def test_every_fix_of_the_golden_inputs_round_trips_through_diagnostic_data() -> None:
    """What a diagnostic's `data` carries reads back as the same fix (its id parsed from the key, the one place
    a key is parsed), and writing it again gives the same data."""
    seen = 0
    for case in cases():
        for finding in check_source(case.input.read_text(encoding="utf-8")):
            data = diagnostic_data(finding, 1)
            back = finding_from_json(data)
            for fix, again in zip(finding.fixes, back.fixes, strict=True):
                assert again.id == fix.id and again.key == fix.key
                assert dataclasses.replace(again, sites=fix.sites, isolation=fix.isolation) == fix
                assert fix_to_json(again) == fix_to_json(fix)
                assert fix.id.site in fix.sites
                seen += 1
    assert seen > 100


def test_data_whose_key_disagrees_with_its_transform_is_refused() -> None:
    fix = Fix(FixId(Transform.RENAME, SiteId(SiteKind.VMAP, 3)), "t", Applicability.SAFE, "r", ())
    data = fix_to_json(fix) | {"transform": "strip"}
    with pytest.raises(ValueError):
        fix_from_json(data)


def test_a_site_moves_by_the_edits_before_it_only() -> None:
    site = SiteId(SiteKind.SHARD_MAP, 100)
    before = Edit(Span(10, 12), "abcde")  # +3, ends before the site
    touching = Edit(Span(95, 100), "")  # -5, ends at the site
    after = Edit(Span(100, 104), "")  # starts at the site: the site stays where it is
    elsewhere = Edit(Span(10, 12, "/other.py"), "abcdefgh")  # another module's text
    assert site.moved([before, touching, after, elsewhere]) == SiteId(SiteKind.SHARD_MAP, 98)
    assert site.moved([]) is site
    other = SiteId(SiteKind.VMAP, 50, "/other.py")
    assert other.moved([before]) is other
    assert other.moved([elsewhere]) == SiteId(SiteKind.VMAP, 56, "/other.py")
    fix_id = FixId(Transform.STRIP, site, ("x",))
    assert fix_id.moved([before]) == FixId(Transform.STRIP, SiteId(SiteKind.SHARD_MAP, 103), ("x",))


def test_the_chain_rule_follows_a_shard_map_that_an_earlier_pass_moved() -> None:
    # Two shard_maps, each with an inner vmap (H2) on an Explicit mesh: the first pass sets check_vma=False on
    # both (unsafe), which inserts text into the first one and so moves the second; the second pass offers
    # lift-captures on each as safe, and each relies on the unsafe change of its own shard_map.
    body = """
        def f(w, x):
            return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)
        def g(w, x):
            return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        jax.vmap(g, spmd_axis_name='x')
        """
    source = HEADER + textwrap.dedent(body)
    result = fix_source(source, Options(unsafe_fixes=True))
    transforms = [f.transform for f in result.applied]
    assert transforms == [Transform.DISABLE_CHECK_VMA] * 2 + [Transform.LIFT_CAPTURES] * 2
    first, second = (f.id.site for f in result.applied[:2])
    lifted = [f.id.site for f in result.applied[2:]]
    assert lifted[0] == first  # nothing before the first shard_map changed
    assert lifted[1].start == second.start + len(", check_vma=False")  # the second one moved
    for lift in result.applied[2:]:
        assert lift.applicability == Applicability.UNSAFE
        assert lift.reason.startswith("applied after an unsafe fix of the same shard_map")


def _fix(start: int, group: SiteId | None) -> tuple[Fix, tuple[Edit, ...]]:
    fix_id = FixId(Transform.RENAME, SiteId(SiteKind.VMAP, start))
    edit = NodeEdit(Span(start, start + 1), EditKind.REPLACE, "'b'")
    fix = Fix(fix_id, "t", Applicability.SAFE, "r", (edit,), frozenset({fix_id.site}), group)
    return fix, (Edit(Span(start, start + 1), "b"),)


def test_fixes_of_one_isolation_group_are_never_applied_in_one_pass() -> None:
    """As ruff's `IsolationLevel::Group`: the second fix of a group waits for the next pass even though its
    edits do not overlap the first's; fixes of other groups, or of none, are kept apart by overlap only."""
    group = SiteId(SiteKind.VMAP, 0)
    offered = [_fix(0, group), _fix(10, group), _fix(20, None), _fix(30, SiteId(SiteKind.VMAP, 30))]
    edits, fixes = fix_engine.accept(offered, [f.id for f, _ in offered])
    assert [f.id.site.start for f in fixes] == [0, 20, 30]
    assert [e.span.start for e in edits] == [0, 20, 30]


def test_rename_add_axis_and_drop_of_one_vmap_share_its_isolation_group() -> None:
    """They all rewrite the vmap's `spmd_axis_name`: at most one of them a pass."""
    source = HEADER.replace("jax.make_mesh((2, 4), ('x', 'y'))", "Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))")
    source += textwrap.dedent(
        """
        def f(x):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='x')(jnp.ones((8, 4)))
        """
    )
    finding = check_source(source)[0]  # SPMD001 (in_specs); SPMD002 (out_specs) shares its fixes
    by_transform = {f.transform: f for f in finding.fixes}
    vmap_site = by_transform[Transform.RENAME].id.site
    assert vmap_site.kind is SiteKind.VMAP
    for transform in (Transform.RENAME, Transform.ADD_AXIS, Transform.DROP_SPMD_AXIS):
        assert by_transform[transform].isolation == vmap_site
    strip = by_transform[Transform.STRIP]
    assert strip.isolation is None and strip.sites == frozenset({strip.id.site})
    assert strip.id.site.kind is SiteKind.SHARD_MAP and strip.id.axes == ("x",)


def test_a_rename_counts_the_shard_maps_whose_axis_names_it_extends_among_its_sites() -> None:
    source = HEADER.replace("jax.make_mesh((2, 4), ('x', 'y'))", "Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))")
    source += textwrap.dedent(
        """
        def f(x):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)
        jax.vmap(f, spmd_axis_name='x')(jnp.ones((8, 4)))
        """
    )
    findings = check_source(source)
    rename = next(x for f in findings for x in f.fixes if x.transform is Transform.RENAME)
    shard_maps = {s for s in rename.sites if s.kind is SiteKind.SHARD_MAP}
    assert len(shard_maps) == 1 and rename.id.site in rename.sites
    (shard_map,) = shard_maps
    assert source[shard_map.start :].startswith("jax.shard_map(")


def test_interactive_does_not_ask_again_about_a_refused_fix_whose_site_moved() -> None:
    """`fix --interactive` keeps the ids of the fixes refused, moved by the edits accepted since: a strip
    refused in one pass is not asked about again when an accepted fix before it moved its shard_map (the key
    regex it replaced moved `vmap@`/`shard_map@` keys only when nothing followed the offset, so never a
    strip's)."""
    from spmdfix.cli.interactive import Asker

    accepted = Fix(FixId(Transform.RENAME, SiteId(SiteKind.VMAP, 10)), "a", Applicability.SAFE, "r", ())
    refused = Fix(FixId(Transform.STRIP, SiteId(SiteKind.SHARD_MAP, 100), ("x",)), "s", Applicability.SAFE, "r", ())
    asked: list[FixId] = []
    answers = iter(["y", "n"])
    asker = Asker("m.py")
    asker._ask = lambda text, fix, edits: asked.append(fix.id) or next(answers)  # type: ignore[method-assign]
    grow = (Edit(Span(10, 11), "abcd"),)  # 3 code points more before the shard_map
    assert asker("x" * 200, [(accepted, grow), (refused, ())]) == [accepted.id]
    moved = dataclasses.replace(refused, id=refused.id.moved(grow))
    assert moved.id.site.start == 103
    assert asker("x" * 203, [(moved, ())]) == []
    assert asked == [accepted.id, refused.id]
