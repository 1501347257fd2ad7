"""The rows a side-by-side compare shows: changes, a little context, unchanged runs folded.

Pure: built from a ``SideBySide`` in time proportional to its chunks, not its lines, so a
compare of two 256 KB texts is planned in well under a millisecond; rows are looked up by
index (bisect over runs) only for the rows on screen.
"""

from __future__ import annotations

import bisect
from itertools import accumulate
from typing import Literal, NamedTuple

from app.core.diff_model import SideBySide

CONTEXT_LINES = 3
"""Unchanged lines kept open before and after each change, as in ``diff -U3``."""
SMALLEST_FOLD = 4
"""Fewer unchanged lines than this stay open: a fold row would save next to nothing."""

RowKind = Literal["same", "change", "fold"]


class Run(NamedTuple):
    """Consecutive rows of one kind from one chunk; a fold stands for ``length`` rows.

    A tuple rather than a dataclass: a plan of two fully different 256 KB texts makes
    thousands of them, and a tuple is made several times faster.
    """

    kind: RowKind
    chunk: int  # index into model.chunks
    offset: int  # the chunk's first row this run shows (or folds)
    length: int

    @property
    def shown(self) -> int:
        return 1 if self.kind == "fold" else self.length


class Row(NamedTuple):
    """One display row: a line of each side, or filler (None) where a side has no line."""

    kind: RowKind
    chunk: int
    change: int  # index into model.changes; -1 for unchanged rows and folds
    old_line: int | None
    new_line: int | None
    hidden: int = 0  # a fold: the unchanged lines it stands for


class RowPlan:
    """Rows of a compare, with the folds the operator has opened kept open."""

    def __init__(
        self,
        model: SideBySide,
        opened: frozenset[tuple[int, int]] = frozenset(),
        *,
        folding: bool = True,
    ) -> None:
        self.model = model
        self.opened = opened  # (chunk, offset) of each fold opened by the operator
        self.folding = folding
        runs, shown, changes = self._plan()
        self.runs: tuple[Run, ...] = tuple(runs)
        self.starts: list[int] = [0, *accumulate(shown)]
        self.row_count: int = self.starts[-1]
        self._change_starts = [self.starts[i] for i in changes]
        self._change_of_chunk = {runs[i].chunk: n for n, i in enumerate(changes)}

    def _plan(self) -> tuple[list[Run], list[int], list[int]]:
        """The runs, the rows each shows, and the run index of each change, in one pass (a
        fully different 256 KB pair has thousands of chunks: no property calls per chunk)."""
        chunks = self.model.chunks
        last = len(chunks) - 1
        runs: list[Run] = []
        shown: list[int] = []
        changes: list[int] = []
        folding, opened = self.folding, self.opened
        for index, chunk in enumerate(chunks):
            rows = max(chunk.old_end - chunk.old_start, chunk.new_end - chunk.new_start)
            if chunk.tag != "equal":
                changes.append(len(runs))
                runs.append(Run("change", index, 0, rows))
                shown.append(rows)
                continue
            head = CONTEXT_LINES if index > 0 else 0
            tail = CONTEXT_LINES if index < last else 0
            hidden = rows - head - tail
            if not folding or hidden < SMALLEST_FOLD or (index, head) in opened:
                runs.append(Run("same", index, 0, rows))
                shown.append(rows)
                continue
            if head:
                runs.append(Run("same", index, 0, head))
                shown.append(head)
            runs.append(Run("fold", index, head, hidden))
            shown.append(1)
            if tail:
                runs.append(Run("same", index, head + hidden, tail))
                shown.append(tail)
        return runs, shown, changes

    # ---------------------------------------------------------------- looking up

    def run_index(self, row: int) -> int:
        """Index into ``runs`` of the run holding display row ``row``."""
        return bisect.bisect_right(self.starts, row) - 1

    def row(self, index: int) -> Row:
        if not 0 <= index < self.row_count:
            raise IndexError(index)
        run = self.runs[self.run_index(index)]
        chunk = self.model.chunks[run.chunk]
        if run.kind == "fold":
            first_old, first_new = chunk.old_start + run.offset, chunk.new_start + run.offset
            return Row("fold", run.chunk, -1, first_old, first_new, hidden=run.length)
        at = run.offset + index - self.starts[self.run_index(index)]
        old = chunk.old_start + at if at < chunk.old_end - chunk.old_start else None
        new = chunk.new_start + at if at < chunk.new_end - chunk.new_start else None
        change = self._change_of_chunk.get(run.chunk, -1)
        return Row(run.kind, run.chunk, change, old, new)

    def lines_of_run(self, run: Run) -> tuple[range, range]:
        """The old and new line indices a (non-fold) run shows, each side's own length."""
        chunk = self.model.chunks[run.chunk]
        old_rows = chunk.old_end - chunk.old_start
        new_rows = chunk.new_end - chunk.new_start
        end = run.offset + run.length
        return (
            range(
                chunk.old_start + min(run.offset, old_rows), chunk.old_start + min(end, old_rows)
            ),
            range(
                chunk.new_start + min(run.offset, new_rows), chunk.new_start + min(end, new_rows)
            ),
        )

    def change_rows(self, change: int) -> range:
        """The display rows of change number ``change`` (changes are never folded)."""
        start = self._change_starts[change]
        return range(start, start + self.model.changes[change].rows)

    def change_at_or_after(self, row: int) -> int | None:
        found = bisect.bisect_left(self._change_starts, row)
        return found if found < len(self._change_starts) else None

    @property
    def fold_count(self) -> int:
        return sum(1 for run in self.runs if run.kind == "fold")

    # ---------------------------------------------------------------- opening

    def with_fold_opened(self, row: int) -> RowPlan:
        """The plan with the fold at display row ``row`` open; itself when it is no fold."""
        run = self.runs[self.run_index(row)]
        if run.kind != "fold":
            return self
        opened = self.opened | {(run.chunk, run.offset)}
        return RowPlan(self.model, opened, folding=self.folding)

    def with_folding(self, folding: bool) -> RowPlan:
        """Every unchanged run folded again (True), or all of them open (False)."""
        return RowPlan(self.model, frozenset(), folding=folding)
