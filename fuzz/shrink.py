"""Shrinks a violating program: features are reset to their simplest value while the violation persists.

A program is its features (fuzz/gen.py), so every candidate is rendered by the generator and stays a valid,
self-checking program (its reference is regenerated with it). Only the fix run that broke the invariant is
repeated for each candidate.
"""

from __future__ import annotations

from fuzz import gen
from fuzz.classify import Violation, judge

MAX_PASSES = 3


def shrink_program(worker, features: dict, violation: Violation) -> tuple[dict, Violation]:
    """The smallest features found (and the violation they give) that still break `violation.key`.

    `worker` is a fuzz.run.Worker. Tries, feature by feature in FEATURES order, the default value; keeps each
    reset under which a violation of the same key remains. Stops after a pass with no change.
    """
    runs = [[violation.strategy, violation.unsafe]] if violation.strategy else []
    current, current_v = dict(features), violation
    base = gen.defaults()
    for _ in range(MAX_PASSES):
        changed = False
        for name in gen.FEATURES:
            if current[name] == base[name]:
                continue
            candidate = {**current, name: base[name]}
            if gen.describe(candidate) == gen.describe(current):
                continue
            found = _violation(worker, candidate, violation.key, runs)
            if found is not None:
                current, current_v, changed = candidate, found, True
        if not changed:
            break
    return current, current_v


def _violation(worker, features: dict, key: str, runs: list) -> Violation | None:
    reply = worker.evaluate({"id": "shrink", "source": gen.render(features), "runs": runs,
                             "spmd_vmap": gen.spmd_vmap(features)})
    if reply is None:
        return None
    for v in judge(reply).violations:
        if v.key == key:
            return v
    return None
