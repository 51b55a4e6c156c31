"""What a rule's check reads (`Site`), how it reports (`finding`,
`related_places`), and the shape of its inline example cases (`Valid`, `Invalid`, read after
`CASE_HEADER`).

Every rule-family module under `spmdfix.rules` takes its `Rule`s from the table (`rules.codes`) and declares
its `VALID`/`INVALID` cases and one `check`; `spmdfix.plan` runs the checks. Imports nothing of the analysis
(the fact types are annotations only).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from spmdfix.fixes.edits import backticked
from spmdfix.model import Finding, Fix, Refusal, Related
from spmdfix.perf import record
from spmdfix.rules.codes import Rule  # (the table's: re-exported for the families' checks)

if TYPE_CHECKING:
    from spmdfix.analysis.facts import ReachedFacts, VmapFacts


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class Site:
    """One vmap site as its rules read it.

    vmap: its facts. h2: hazard H2 holds at some shard_map it reaches (`analysis.hazards.has_h2`; False for
    a plain vmap, where H2 is not defined). fixes: the fixes planned once for the whole site and offered by
    each finding the site as a whole cures: rename and add-axis for a vmap with `spmd_axis_name`
    (`fixes.rename_spmd_axis`, `fixes.add_mesh_axis`), move-placement for a plain vmap (`fixes.move_placement`).
    """

    vmap: VmapFacts
    h2: bool
    fixes: tuple[Fix | Refusal, ...]


def finding(rule: Rule, span, axes, message: str, options, related) -> Finding:
    """A finding of `rule` whose fixes are the `Fix`es among `options` and whose refusals are the rest."""
    return Finding(
        code=rule.code,
        name=rule.name,
        message=message,
        span=span,
        axis=axes[0] if axes else "",
        related=related,
        fixes=tuple(o for o in options if isinstance(o, Fix)),
        refusals=tuple(o for o in options if isinstance(o, Refusal)),
    )


def related_places(vmap: VmapFacts, reached: ReachedFacts) -> tuple[Related, ...]:
    """A finding's related places at a reached shard_map: the spmd_axis_name argument, the call chain, and
    the shard_map (once, when the chain ends there)."""
    steps = [Related(f"`spmd_axis_name` {backticked(vmap.spmd.names)} given here", vmap.spmd.span), *reached.chain]
    sm = reached.shard_map
    if not reached.chain or reached.chain[-1].span != sm.span:
        steps.append(Related("shard_map constructed here", sm.span))
    return tuple(steps)


# What every inline case is checked after: a 2x4 Auto mesh over ('x', 'y') named `mesh`, `P`, `partial`.
CASE_HEADER = """\
import functools
from functools import partial
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
"""


@record(frozen=True)
class Valid:
    """An inline case (Fixit's `Valid`): code on which rule `code` reports nothing."""

    code: str
    source: str

    @property
    def program(self) -> str:
        """The module checked: `CASE_HEADER`, then `source` dedented."""
        return CASE_HEADER + textwrap.dedent(self.source)


@record(frozen=True)
class Invalid:
    """An inline case (Fixit's `Invalid`): code on which rule `code` reports at least one finding; when `at` is
    given, the source text of one of them is exactly `at`."""

    code: str
    source: str
    at: str | None = None

    @property
    def program(self) -> str:
        """The module checked: `CASE_HEADER`, then `source` dedented."""
        return CASE_HEADER + textwrap.dedent(self.source)
