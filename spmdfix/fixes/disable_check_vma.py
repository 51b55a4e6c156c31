"""Transform `disable-check-vma`: turn off shard_map's varying-manual-axes check (always unsafe).

Hazard H2 (docs/jax-behaviour.md): a `jax.vmap` between the spmd vmap and a shard_map, or inside the
body, fails under `check_vma=True` with a `pvary` error even for an elementwise body and no spec collision,
before and after any spec fix; with `check_vma=False` the same program runs and matches (golden
add-axis/h2_check_vma_false). The check also guards against wrong replication claims in out_specs, which is
why this fix is never safe. The old API spells it `check_rep`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.model import Applicability, EditKind, Fix, FixId, NodeEdit, Refusal, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import ReachedFacts

TRANSFORM = Transform.DISABLE_CHECK_VMA


def plan(reached: ReachedFacts) -> Fix | Refusal:
    """Set `check_vma=False` (`check_rep=False`) on the shard_map: replace an explicit value, else add it.
    Refused for an API without such a flag (`jaxapi.ShardMapApi.check_flag`: `jax.smap` always checks)."""
    sm = reached.shard_map
    keyword = sm.api.check_flag
    if keyword is None:
        return Refusal(TRANSFORM, "this shard_map API always checks: it has no `check_vma`/`check_rep` to turn off")
    if sm.check_span is not None:
        edit = NodeEdit(sm.check_span, EditKind.REPLACE, "False")
    else:
        edit = NodeEdit(sm.span, EditKind.INSERT, f"{keyword}=False", -1)
    return Fix(
        FixId(TRANSFORM, sm.site),
        title=f"Pass `{keyword}=False` to the shard_map",
        applicability=Applicability.UNSAFE,
        reason=f"`{keyword}=False` also turns off JAX's check that out_specs' replication claims hold",
        node_edits=(edit,),
        sites=frozenset({sm.site}),
    )
