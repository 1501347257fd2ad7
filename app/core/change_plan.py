"""A change set before it is sent: each Task's new text, its budget before → after, its
shape check, and whether it may go (a Task pushed past a limit is marked and unticked).

Pure: the texts and sizes come in, the rows go out; the desk builds them off the GUI thread.
The embedded bytes after a change are exact: when the edit leaves the Task's embeds as they
were, the run inlines the same notes (the bytes are the notes'); otherwise ``recount``
expands the new text with the real expander.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from app.core.expander import EMBED_RE
from app.core.limits import EMBED_BUDGET_BYTES, TASK_MAX_BYTES, utf8_len
from app.core.merge import merge_texts
from app.core.shape_codes import task_shape_codes

Edit = Callable[[str], str]
CONFLICTS_SINCE = "Left out: someone saved this Task since, and the change conflicts with theirs."


class BadEditError(ValueError):
    """An edit that can't be made (a pattern that doesn't compile); the message says why."""


def replace_edit(find: str, replacement: str, *, regex: bool = False) -> Edit:
    """Every occurrence of ``find`` (case-insensitive, as search finds it) becomes
    ``replacement``; with ``regex`` a Python pattern and ``\\1`` references."""
    if not find:
        raise BadEditError("Say what to replace: the text to find is empty.")
    try:
        pattern = re.compile(find if regex else re.escape(find), re.IGNORECASE | re.MULTILINE)
    except re.error as bad:
        raise BadEditError(f"The pattern doesn't compile: {bad}.") from None
    if not regex:
        return lambda text: pattern.sub(lambda _: replacement, text)
    try:
        pattern.sub(replacement, "")  # a bad group reference shows here, not per Task
    except (re.error, IndexError) as bad:
        raise BadEditError(f"The replacement doesn't fit the pattern: {bad}.") from None
    return lambda text: pattern.sub(replacement, text)


def insert_after_heading_edit(heading: str, line: str) -> Edit:
    """``line`` goes right under the first heading whose text is ``heading`` (any level,
    any case); a Task without that heading is left as it is."""
    wanted = heading.strip().lstrip("#").strip().lower()
    if not wanted or not line.strip():
        raise BadEditError("Say which heading, and the line to insert under it.")

    def edit(text: str) -> str:
        lines = text.splitlines(keepends=True)
        for i, current in enumerate(lines):
            stripped = current.strip()
            if stripped.startswith("#") and stripped.lstrip("#").strip().lower() == wanted:
                newline = "\r\n" if current.endswith("\r\n") else "\n"
                if not current.endswith(("\n", "\r")):
                    lines[i] = current + newline
                lines.insert(i + 1, line.rstrip("\r\n") + newline)
                return "".join(lines)
        return text

    return edit


def remove_line_edit(line: str) -> Edit:
    """Every line that reads exactly ``line`` (ignoring spaces at its ends) is removed."""
    wanted = line.strip()
    if not wanted:
        raise BadEditError("Say which line to remove.")
    return lambda text: "".join(
        kept for kept in text.splitlines(keepends=True) if kept.strip() != wanted
    )


@dataclass(frozen=True, slots=True)
class TaskAsIs:
    """A Task as it stands: what the plan changes."""

    agent_id: str
    name: str
    guild_id: str
    version: int
    content: str
    embedded_bytes: int
    shape: tuple[str, ...] | None = None  # the shape check's codes, when already known


@dataclass(frozen=True, slots=True)
class PlanRow:
    """One Task of the preview. ``refusal`` is why it cannot go (then it is unticked)."""

    agent_id: str
    name: str
    guild_id: str
    expected_version: int
    before: str
    after: str
    task_bytes_before: int
    task_bytes_after: int
    embedded_before: int
    embedded_after: int
    shape_before: tuple[str, ...]
    shape_after: tuple[str, ...] | None  # None: not checked yet (see with_shapes)
    ticked: bool = True
    refusal: str = ""
    rebased: bool = False  # merged with a save made since the preview was first built

    @property
    def changed(self) -> bool:
        return self.after != self.before

    @property
    def can_go(self) -> bool:
        return not self.refusal


def _embeds(text: str) -> list[str]:
    return [m.group(0) for m in EMBED_RE.finditer(text)]


def refusal_for(task_bytes: int, embedded_bytes: int) -> str:
    """The one sentence that keeps a row out, or ""."""
    if task_bytes > TASK_MAX_BYTES:
        return f"Left out: the Task would be {task_bytes:,} bytes, over the 256 KB limit."
    if embedded_bytes > EMBED_BUDGET_BYTES:
        return f"Left out: its embeds would hold {embedded_bytes:,} bytes, over the 64 KB budget."
    return ""


def plan_row(
    task: TaskAsIs,
    after: str,
    recount: Callable[[TaskAsIs, str], int],
    *,
    check_shape: bool = True,
) -> PlanRow:
    """The row for one Task; ``recount(task, text)`` gives the embedded bytes of a new text
    (called only when the edit changed the Task's embeds). Without ``check_shape`` the new
    text's shape is left for ``with_shapes`` (a millisecond a Task: the rows come first)."""
    embedded_after = task.embedded_bytes
    if _embeds(after) != _embeds(task.content):
        embedded_after = recount(task, after)
    bytes_after = utf8_len(after)
    refusal = refusal_for(bytes_after, embedded_after)
    return PlanRow(
        task.agent_id,
        task.name,
        task.guild_id,
        task.version,
        task.content,
        after,
        utf8_len(task.content),
        bytes_after,
        task.embedded_bytes,
        embedded_after,
        task.shape if task.shape is not None else task_shape_codes(task.content),
        task_shape_codes(after) if check_shape else None,
        ticked=not refusal,
        refusal=refusal,
    )


def build_plan(
    tasks: Sequence[TaskAsIs],
    edit: Edit,
    recount: Callable[[TaskAsIs, str], int],
    *,
    check_shapes: bool = True,
) -> list[PlanRow]:
    """The preview's rows: every Task the edit changes, in the order given."""
    rows = []
    for task in tasks:
        after = edit(task.content)
        if after != task.content:
            rows.append(plan_row(task, after, recount, check_shape=check_shapes))
    return rows


def with_shapes(rows: Sequence[PlanRow]) -> dict[str, tuple[str, ...]]:
    """The shape check of each row's new text, by agent, for the rows not checked yet."""
    return {r.agent_id: task_shape_codes(r.after) for r in rows if r.shape_after is None}


def rebase_row(row: PlanRow, live: TaskAsIs, recount: Callable[[TaskAsIs, str], int]) -> PlanRow:
    """A row whose Task was saved since: the change merged (three-way) onto the live text and
    shown again, never written over it. A merge that conflicts is left out, saying so."""
    merged = merge_texts(row.before, live.content, row.after)
    if not merged.is_clean or merged.text is None:
        return replace(
            row,
            expected_version=live.version,
            before=live.content,
            ticked=False,
            refusal=CONFLICTS_SINCE,
            rebased=True,
        )
    return replace(plan_row(live, merged.text, recount), rebased=True)


def ticked_changes(rows: Sequence[PlanRow]) -> list[PlanRow]:
    """The rows that go: ticked, allowed, and changing something."""
    return [r for r in rows if r.ticked and r.can_go and r.changed]
