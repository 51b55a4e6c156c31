"""The changes of several fix passes as edits of the first text.

`fix_source` applies edits pass after pass, each pass's edits being offsets into the text the previous pass
made. A language server's fix-all needs them as edits of the text it holds; diffing the two texts line by line
(`difflib`) takes seconds on a 12,000-line module whose first and last lines both change. `EditLog` instead
keeps, for each changed region of the first text, the length of what replaces it now, and merges an edit that
touches a region into it, so the composed edits are exact without any diff.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spmdfix.model import Edit, Span


# eq=False, repr=False: nothing compares, hashes or prints this record, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(slots=True, eq=False, repr=False)
class _Region:
    start: int  # [start, end) of the first text ...
    end: int
    length: int  # ... is replaced by this many code points of the current text


class EditLog:
    """Changed regions of a first text, as later texts replace them. Input and output: `model.Edit`s."""

    def __init__(self) -> None:
        self._regions: list[_Region] = []  # sorted, disjoint, never touching

    def record(self, edits: Iterable[Edit]) -> None:
        """Record the edits of one pass: non-overlapping edits of the current text (any order)."""
        for edit in sorted(edits, key=lambda e: (e.span.start, e.span.end), reverse=True):
            self._record(edit)

    def copy(self) -> EditLog:
        """A log with the same regions, which later records of either leave the other's alone (regions are
        replaced, never changed in place)."""
        twin = EditLog()
        twin._regions = list(self._regions)
        return twin

    def _record(self, edit: Edit) -> None:
        # Edits come last first: the text before this edit is still the current text of every region there.
        s, t = edit.span.start, edit.span.end
        shift = 0  # current length minus first length, over the regions before index `lo`
        lo = 0
        while lo < len(self._regions) and self._current_end(lo, shift) < s:
            region = self._regions[lo]
            shift += region.length - (region.end - region.start)
            lo += 1
        hi, grown = lo, shift
        while hi < len(self._regions) and self._regions[hi].start + grown <= t:
            region = self._regions[hi]  # touches or overlaps the edit: merged into its region
            grown += region.length - (region.end - region.start)
            hi += 1
        if hi == lo:
            start, end, cur_start, cur_end = s - shift, t - shift, s, t
        else:
            first, last = self._regions[lo], self._regions[hi - 1]
            first_at, last_end = first.start + shift, last.start + grown - (last.length - (last.end - last.start)) + last.length
            start, cur_start = (first.start, first_at) if first_at <= s else (s - shift, s)
            end, cur_end = (last.end, last_end) if last_end >= t else (t - grown, t)
        length = (cur_end - cur_start) - (t - s) + len(edit.content)
        self._regions[lo:hi] = [_Region(start, end, length)]

    def _current_end(self, index: int, shift: int) -> int:
        region = self._regions[index]
        return region.start + shift + region.length

    def edits(self, current: str) -> tuple[Edit, ...]:
        """The edits of the first text that give `current` (the text after the recorded passes), sorted."""
        out, shift = [], 0
        for region in self._regions:
            at = region.start + shift
            out.append(Edit(Span(region.start, region.end), current[at : at + region.length]))
            shift += region.length - (region.end - region.start)
        return tuple(out)
