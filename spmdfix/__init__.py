"""spmdfix: find and fix vmap spmd_axis_name / shard_map PartitionSpec collisions in JAX code."""

from spmdfix.api import FixResult, Options, check_source, choose_fix, fix_edits_for, fix_source
from spmdfix.model import Applicability, Edit, Finding, Fix, Span, Strategy, Transform

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
