"""What the app shows of why a run gets what it gets: References, the budget, runs compared.

The blocking half of the References view, the budget breakdown and "changed since the last
run": each function reads notes through the preview's ``PreviewNotes`` (memory, offline copy,
then the server), so it explains exactly what the preview showed. Call them on the runner,
never on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.client.runs import RunInfo, RunSummary, TaskSource
from app.core.budget import BudgetBreakdown, budget_breakdown
from app.core.expander import expand_embeds
from app.core.expansion_changes import (
    ExpansionChanges,
    compare_expansions,
    side_from_expansion,
    side_from_run,
)
from app.core.marker_reasons import EarlierFile, earlier_files
from app.core.models import Reader
from app.core.references import References, find_references
from app.core.task_outline import TaskSize, task_size
from app.core.task_shape import ShapeCheck, check_task_shape
from app.render.preview_notes import PreviewNotes


@dataclass(frozen=True, slots=True)
class TaskContext:
    """Whose Task: the org, the agent it is expanded as, and the Task's display path."""

    org_id: str
    reader: Reader
    task_path: str


@dataclass(frozen=True, slots=True)
class TaskInsight:
    """The References of one text of the Task, its sections by size and its shape."""

    text: str
    references: References
    sizes: TaskSize
    shape: ShapeCheck


@dataclass(frozen=True, slots=True)
class BudgetView:
    """The 64 KB budget note by note, and the Task's 256 KB section by section."""

    budget: BudgetBreakdown
    sizes: TaskSize


def explain_task(
    notes: PreviewNotes, text: str, context: TaskContext, history: Iterable[EarlierFile] = ()
) -> TaskInsight:
    """Every reference a run of ``text`` meets, with each marker's reason."""
    references = find_references(
        text,
        org_id=context.org_id,
        reader=context.reader,
        lookup=notes.file,
        task_path=context.task_path,
        history=history,
    )
    return TaskInsight(text, references, task_size(text), check_task_shape(text))


def break_down_budget(notes: PreviewNotes, text: str, context: TaskContext) -> BudgetView:
    """The budget breakdown of ``text``: the expansion and its removals use one lookup."""
    expansion = expand_embeds(
        text,
        org_id=context.org_id,
        reader=context.reader,
        lookup=notes.file,
        task_path=context.task_path,
    )
    budget = budget_breakdown(
        expansion, org_id=context.org_id, reader=context.reader, lookup=notes.file
    )
    return BudgetView(budget, task_size(text))


def history_of_runs(runs: Iterable[RunSummary | RunInfo]) -> tuple[EarlierFile, ...]:
    """What earlier runs inlined, so a note deleted since reads as deleted, not missing."""
    return earlier_files((r.id, source_json(r.task_source)) for r in runs)


def source_json(source: TaskSource) -> dict[str, Any]:
    """A ``task_source`` back in its wire form (API.md, POST runs)."""
    return {
        "version": source.version,
        "hash": source.hash,
        "display_path": source.display_path,
        "has_embeds": source.has_embeds,
        "embeds": list(source.embeds),
        "notes": [
            {
                "display_path": n.display_path,
                "version": n.version,
                "content_hash": n.content_hash,
                "kind": n.kind,
            }
            for n in source.notes
        ],
        "collections": list(source.collections),
    }


@dataclass(frozen=True, slots=True)
class ComparedTasks:
    """Two expanded Tasks, as the compare view shows them, and where each change is from."""

    changes: ExpansionChanges
    old_text: str
    new_text: str


def changes_since_run(
    notes: PreviewNotes,
    run: RunInfo,
    task_text: str,
    task_version: int,
    context: TaskContext,
) -> ComparedTasks:
    """The run's Task as it got it beside what a run of the saved Task would get now.

    Notes are read again from the server first: an edit made a moment ago must show.
    """
    notes.forget()
    expansion = expand_embeds(
        task_text,
        org_id=context.org_id,
        reader=context.reader,
        lookup=notes.file,
        task_path=context.task_path,
    )
    old = side_from_run(run.task_text, source_json(run.task_source))
    new = side_from_expansion(expansion, task_version=task_version, task_text=task_text)
    return ComparedTasks(compare_expansions(old, new), old.text, new.text)


def changes_between_runs(old: RunInfo, new: RunInfo) -> ComparedTasks:
    """Two runs' Tasks, each as the run got it."""
    before = side_from_run(old.task_text, source_json(old.task_source))
    after = side_from_run(new.task_text, source_json(new.task_source))
    return ComparedTasks(compare_expansions(before, after), before.text, after.text)
