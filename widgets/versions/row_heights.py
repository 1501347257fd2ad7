"""Row heights of a compare, in text lines: estimated a slice at a time, exact once laid out."""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Iterable
from itertools import accumulate, zip_longest

from app.core.compare_rows import RowPlan, Run

STEP = 64  # runs estimated between two looks at the clock


class RowHeights:
    """How many text lines each display row takes, and the line each row starts at.

    Estimates come from line lengths (``chars`` characters fit a line at the current width)
    and are made in slices (``advance``): the rows at the top are ready at once, the rest
    follow between events, so no compare holds the GUI thread. Until every row is estimated,
    the rest count one line each. Rows laid out on screen replace their estimate with the
    exact count (``set_exact``).
    """

    def __init__(
        self,
        plan: RowPlan,
        lengths: tuple[list[int], list[int]],
        exact: tuple[dict[int, int], dict[int, int]],
        chars: int,
    ) -> None:
        self.plan = plan
        self.heights: list[int] = []
        self.tops: list[int] = [0]
        self._lengths = lengths
        self._exact = exact  # the canvas's exact counts per side and line, kept across plans
        self._chars = max(1, chars)
        self._next_run = 0

    @property
    def complete(self) -> bool:
        return self._next_run >= len(self.plan.runs)

    def advance(self, deadline: float) -> bool:
        """Estimate more rows until ``deadline`` (a ``time.perf_counter()``); True once all
        are estimated."""
        runs = self.plan.runs
        while not self.complete:
            end = min(self._next_run + STEP, len(runs))
            for run in runs[self._next_run : end]:
                self.heights.extend(self._estimate(run))
            self._next_run = end
            if time.perf_counter() >= deadline:
                break
        self.tops = [0, *accumulate(self.heights)]
        return self.complete

    def finish(self) -> None:
        if not self.complete:
            self.advance(math.inf)

    def _estimate(self, run: Run) -> Iterable[int]:
        if run.kind == "fold":
            return (1,)
        olds, news = self.plan.lines_of_run(run)
        return map(max, zip_longest(self._side(0, olds), self._side(1, news), fillvalue=1))

    def _side(self, side: int, lines: range) -> list[int]:
        lengths, exact, chars = self._lengths[side], self._exact[side], self._chars
        return [exact.get(i) or 1 + max(0, lengths[i] - 1) // chars for i in lines]

    @property
    def total(self) -> int:
        """Lines in all rows; rows not estimated yet count one line each meanwhile."""
        return self.tops[-1] + self.plan.row_count - len(self.heights)

    def set_exact(self, row: int, lines: int) -> bool:
        """Record a laid-out row's height; True when that changed it (then ``refresh``)."""
        if self.heights[row] == lines:
            return False
        self.heights[row] = lines
        return True

    def refresh(self) -> None:
        self.tops = [0, *accumulate(self.heights)]

    def top(self, row: int) -> int:
        """The line display row ``row`` starts at."""
        if row >= len(self.heights):
            self.finish()
        return self.tops[row]

    def row_at(self, line: int) -> tuple[int, int]:
        """The row holding text line ``line``, and how far into the row that line is."""
        if line >= self.tops[-1]:
            self.finish()
        row = max(0, min(bisect.bisect_right(self.tops, line) - 1, len(self.heights) - 1))
        return row, max(0, line - self.tops[row])
