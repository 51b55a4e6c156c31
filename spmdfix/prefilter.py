"""The textual prefilter: decide from the raw text whether a module can hold a finding at all.

Parsing is the cost of a whole-codebase run; most files of a codebase cannot hold a collision, and even files
that mention both `vmap` and `shard_map` (JAX's own internals do) usually have no spmd vmap. The test is
sound for every form the detector supports, because each form needs words in the text:

1. A finding needs a vmap and a shard_map or a with_sharding_constraint that resolve, through this module's
   own imports and attribute chains, to JAX's (or flax's) names (`spmdfix.scopes.ModuleIndex.qualname`).
   Every such resolution ends in an identifier written in the text (`vmap`, `shard_map`,
   `with_sharding_constraint`: in an `import`, a `from ... import ... as ...`, or an attribute such as
   `jax.vmap`).
2. It also needs a vmap site the analysis follows: `spmd_axis_name` written as a keyword (in a call, a
   `partial(...)`, or a `**kw` dict built with that key) — or passed positionally, which needs a `vmap(`
   call with at least six positional arguments — or (SPMD006) a plain vmap over an input placed with
   `jax.device_put`.

`tests/test_prefilter.py` runs the detector on every golden case and checks that no file with a finding
is dropped, positional forms included.
"""

from __future__ import annotations

import functools
import re

_IMPORT_ALIAS = re.compile(r"\bvmap\s+as\s+([A-Za-z_]\w*)")
# `a = b = jax.vmap` / `v: Any = vmap` (a whole simple statement, the value a dotted name, not a call).
_ASSIGNMENT = re.compile(r"[ \t]*((?:[A-Za-z_]\w*[ \t]*(?::[^=]*)?=[ \t]*)+)([\w.]+)[ \t]*(?:#.*)?$")
_TARGET = re.compile(r"([A-Za-z_]\w*)[ \t]*(?::[^=]*)?=")
# What the argument scan steps over: string literals (so their brackets and commas do not count), comments,
# brackets and commas. Any other character is skipped by the search.
_TOKEN = re.compile(
    r"""(?P<str>[rRbBuUfF]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"))"""
    r"|(?P<comment>#[^\n]*)|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<comma>,)"
)
_POSITIONAL_SPMD_COMMAS = 5  # spmd_axis_name is jax.vmap's 6th positional parameter (flax.linen.vmap: 8th)


@functools.lru_cache(maxsize=16)
def may_have_findings(source: str) -> bool:
    """True unless the text proves the module cannot hold a finding. Never raises.

    Cached: a run asks it for its statistics and `api.check_source` asks again for the same text.
    """
    if "vmap" not in source:
        return False
    if "shard_map" not in source and "with_sharding_constraint" not in source:
        return False
    return "spmd_axis_name" in source or "device_put" in source or _has_long_vmap_call(source)


def _vmap_names(source: str) -> set[str]:
    """`vmap` and every name the text may bind to it: `import ... vmap as v`, `v = jax.vmap`, `w = v`,
    `a = b = vmap`, `v: Any = vmap` (the bindings `spmdfix.scopes` follows), to a fixed point. Only the
    lines that mention a known name are searched for assignments."""
    names = {"vmap", *_IMPORT_ALIAS.findall(source)}
    while True:
        mentions = re.compile(r"^.*\b(?:" + "|".join(sorted(names)) + r")\b.*$", re.MULTILINE)
        found = set(names)
        for line in mentions.findall(source):
            for statement in line.split(";"):
                match = _ASSIGNMENT.match(statement)
                if match and match.group(2).rsplit(".", 1)[-1] in names:
                    found.update(_TARGET.findall(match.group(1)))
        if found == names:
            return names
        names = found


def _has_long_vmap_call(source: str) -> bool:
    """True when some call of vmap (or an alias) has at least six top-level arguments, or no visible end."""
    call = re.compile(r"\b(?:" + "|".join(sorted(_vmap_names(source))) + r")\s*\(")
    for match in call.finditer(source):
        depth, commas = 1, 0
        for token in _TOKEN.finditer(source, match.end()):
            kind = token.lastgroup
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth -= 1
                if depth == 0:
                    break
            elif kind == "comma" and depth == 1:
                commas += 1
                if commas >= _POSITIONAL_SPMD_COMMAS:
                    return True
        else:
            return True  # no closing bracket found: cannot rule the call out
    return False
