"""The planner: collisions become findings, each with the fixes that apply and their safety class.

Pure: analysis facts in (`spmdfix.analysis.VmapFacts`), `model.Finding`s out. A finding is one spec entry
that names an spmd axis of a vmap site reaching it; JAX raises for any such entry, batched argument or not
[jax-semantics.md "When JAX raises"; 02, 03, 08]. The fixes come from the transforms in
`spmdfix.codemods` (rename and add-axis per vmap site, strip per shard_map), each of which decides its own
safety class from the measured rows of jax-semantics.md (docs/safety.md lists the runnable cases).
Hazard H2 (a `jax.vmap` between the spmd vmap and the shard_map, or in its body, under check_vma=True)
fails before and after every fix [01 1m, 09]: the finding says so and every fix is unsafe.
"""

from __future__ import annotations

from spmdfix import rules
from spmdfix.analysis import VmapFacts
from spmdfix.codemods import add_mesh_axis, rename_spmd_axis, strip_spec_entries
from spmdfix.codemods._common import backticked, has_h2
from spmdfix.model import Finding, Fix, Refusal, Related

DEFAULT_NEW_AXIS = "batch"


def plan_findings(facts: list[VmapFacts], new_axis: str = DEFAULT_NEW_AXIS) -> list[Finding]:
    """Findings for every spec entry that names an spmd axis, sorted by position.

    Input: the analysis facts of one module. Output: one `Finding` per (vmap site, conflicting entry),
    each carrying its applicable fixes (rename, add-axis, strip order) and the refusals of the others.
    """
    findings: list[Finding] = []
    for vmap in facts:
        findings.extend(_vmap_findings(vmap, new_axis))
    findings.sort(key=lambda f: (f.span.start, f.code, f.message))
    return findings


def _vmap_findings(vmap: VmapFacts, new_axis: str) -> list[Finding]:
    spmd = set(vmap.spmd.names)
    collisions = [
        (reached, entry, where)
        for reached in vmap.reached
        for where, tree in (("in_specs", reached.shard_map.in_specs), ("out_specs", reached.shard_map.out_specs))
        for spec in tree.specs
        for entry in spec.entries
        if entry.value is not None and spmd & set(entry.value.names)
    ]
    if not collisions:
        return []
    h2 = has_h2(vmap)
    per_site = [rename_spmd_axis.plan(vmap), add_mesh_axis.plan(vmap, new_axis)]
    strips: dict[str, Fix | Refusal] = {}
    findings = []
    for reached, entry, where in collisions:
        sm = reached.shard_map
        if sm.key not in strips:
            strips[sm.key] = strip_spec_entries.plan(vmap, reached)
        options = [*per_site, strips[sm.key]]
        axes = [a for a in entry.value.names if a in spmd]
        rule = rules.IN_SPECS if where == "in_specs" else rules.OUT_SPECS
        findings.append(
            Finding(
                code=rule.code,
                name=rule.name,
                message=_message(axes, where, sm.check_vma, h2, out_only=not set(axes) & sm.in_specs.axes()),
                span=entry.span,
                axis=axes[0],
                related=_related(vmap, reached),
                fixes=tuple(o for o in options if isinstance(o, Fix)),
                refusals=tuple(o for o in options if isinstance(o, Refusal)),
            )
        )
    return findings


def _message(axes: list[str], where: str, check_vma: bool | None, h2: bool, out_only: bool) -> str:
    message = (
        f"vmap `spmd_axis_name` axis {backticked(axes)} appears in `{where}` of a shard_map the vmapped "
        f"function reaches; JAX raises `vmap spmd_axis_name cannot appear in shard_map {where}`"
    )
    if where == "out_specs" and out_only and check_vma is not False:
        message += " (with `check_vma=True` an out_specs-only collision surfaces as a `pvary` error)"
    if h2:
        message += (
            "; note: a `jax.vmap` between the spmd vmap and this shard_map (or in its body) fails under "
            "`check_vma=True` before and after any spec fix (hazard H2)"
        )
    return message


def _related(vmap: VmapFacts, reached) -> tuple[Related, ...]:
    """The spmd_axis_name argument, the call chain, and the shard_map (once, when the chain ends there)."""
    steps = [Related(f"`spmd_axis_name` {backticked(vmap.spmd.names)} given here", vmap.spmd.span), *reached.chain]
    sm = reached.shard_map
    if not reached.chain or reached.chain[-1].span != sm.span:
        steps.append(Related("shard_map constructed here", sm.span))
    return tuple(steps)
