"""spmdfix: find and fix vmap spmd_axis_name / shard_map PartitionSpec collisions in JAX code.

The names below are loaded on first use (PEP 562): `import spmdfix.cli` must not import the analysis, so
that a parallel run's main process only discovers files while its workers import it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spmdfix.api import FixResult, check_source, fix_edits_for, fix_source
    from spmdfix.model import Applicability, Edit, Finding, Fix, Options, Span, Strategy, Transform, choose_fix

_WHERE = {
    "Applicability": "spmdfix.model",
    "Edit": "spmdfix.model",
    "Finding": "spmdfix.model",
    "Fix": "spmdfix.model",
    "FixResult": "spmdfix.api",
    "Options": "spmdfix.model",
    "Span": "spmdfix.model",
    "Strategy": "spmdfix.model",
    "Transform": "spmdfix.model",
    "check_source": "spmdfix.api",
    "choose_fix": "spmdfix.model",
    "fix_edits_for": "spmdfix.api",
    "fix_source": "spmdfix.api",
}
__all__ = [
    "Applicability",
    "Edit",
    "Finding",
    "Fix",
    "FixResult",
    "Options",
    "Span",
    "Strategy",
    "Transform",
    "check_source",
    "choose_fix",
    "fix_edits_for",
    "fix_source",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'spmdfix' has no attribute {name!r}")
