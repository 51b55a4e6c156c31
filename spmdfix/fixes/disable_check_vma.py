"""Transform `disable-check-vma`: turn off shard_map's varying-manual-axes check (always unsafe).

Hazard H2 (docs/jax-behaviour.md): a `jax.vmap` between the spmd vmap and a shard_map, or inside the
body, fails under `check_vma=True` with a `pvary` error even for an elementwise body and no spec collision,
before and after any spec fix; with `check_vma=False` the same program runs and matches (golden
add-axis/h2_check_vma_false). The check also guards against wrong replication claims in out_specs, which is
why this fix is never safe. The old API spells it `check_rep`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.model import Applicability, Fix, NodeEdit, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import ReachedFacts

TRANSFORM = Transform.DISABLE_CHECK_VMA


def plan(reached: ReachedFacts) -> Fix:
    """Set `check_vma=False` (`check_rep=False`) on the shard_map: replace an explicit value, else add it."""
    sm = reached.shard_map
    keyword = "check_vma" if sm.api == "new" else "check_rep"
    if sm.check_span is not None:
        edit = NodeEdit(sm.check_span, "replace", "False")
    else:
        edit = NodeEdit(sm.span, "insert", f"{keyword}=False", -1)
    return Fix(
        TRANSFORM,
        key=f"disable-check-vma:{sm.key}",
        title=f"Pass `{keyword}=False` to the shard_map",
        applicability=Applicability.UNSAFE,
        reason=f"`{keyword}=False` also turns off JAX's check that out_specs' replication claims hold",
        node_edits=(edit,),
    )
