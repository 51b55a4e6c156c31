"""`EditLog` composes the edits of several passes into edits of the first text; `FixResult.edits` are those."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spmdfix.api import Options, fix_source
from spmdfix.edit_log import EditLog
from spmdfix.model import STRATEGIES, Edit, Span, Strategy
from spmdfix.positions import apply_edits

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_regions_merge_when_a_later_pass_touches_them() -> None:
    first = "a = f(x)\nb = g(y)\n"
    log = EditLog()
    second = apply_edits(first, [Edit(Span(6, 7), "xx")])  # a = f(xx)
    log.record([Edit(Span(6, 7), "xx")])
    third = apply_edits(second, [Edit(Span(8, 9), ", z"), Edit(Span(16, 17), "Y")])  # inside/after the first region
    log.record([Edit(Span(8, 9), ", z"), Edit(Span(16, 17), "Y")])
    assert third == "a = f(xx, z\nb = g(Y)\n"
    assert log.edits(third) == (Edit(Span(6, 8), "xx, z"), Edit(Span(15, 16), "Y"))


@pytest.mark.parametrize("seed", range(5))
def test_random_passes_compose_exactly(seed: int) -> None:
    """Random non-overlapping edits (insertions, deletions, replacements, adjacent ones) over several passes:
    the composed edits are sorted, never touch, and turn the first text into the last."""
    rng = random.Random(seed)
    for _ in range(2000):
        first = "".join(rng.choice("ab\r\n") for _ in range(rng.randint(0, 25)))
        current, log = first, EditLog()
        for _ in range(rng.randint(1, 5)):
            points = sorted(rng.randint(0, len(current)) for _ in range(2 * rng.randint(0, 4)))
            edits = [
                Edit(Span(points[i], points[i + 1]), "".join(rng.choice("XY") for _ in range(rng.randint(0, 3))))
                for i in range(0, len(points), 2)
            ]
            rng.shuffle(edits)
            current = apply_edits(current, edits)
            log.record(edits)
        composed = log.edits(current)
        assert all(a.span.end < b.span.start for a, b in zip(composed, composed[1:]))
        assert apply_edits(first, composed) == current


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_fix_result_edits_give_the_fixed_source(strategy: Strategy) -> None:
    """On every golden input: applying `FixResult.edits` to the input gives the result's source, and
    unchanged text has no edit."""
    for path in sorted(GOLDEN.glob("*/*/input.py")):
        source = path.read_text(encoding="utf-8")
        result = fix_source(source, Options(strategy=strategy, unsafe_fixes=True))
        assert apply_edits(source, result.edits) == result.source, path
        assert bool(result.edits) == (result.source != source), path
