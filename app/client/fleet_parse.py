"""The fleet's answers (health, search, change sets, audit) read into the fleet's records."""

from __future__ import annotations

from app.core.fleet_models import (
    AgentMatches,
    AuditEvent,
    ChangeSet,
    HealthRow,
    LineMatch,
    LiveTaskText,
    VersionRef,
)
from app.core.model_json import Fields, ShapeError


def _optional_flag(f: Fields, key: str) -> bool | None:
    return f.flag(key) if f.present(key) else None


def _optional_whole(f: Fields, key: str) -> int | None:
    return f.whole(key) if f.present(key) else None


def health_from(data: object) -> list[HealthRow]:
    return [
        HealthRow(
            f.text("id"),
            f.text("name"),
            f.text("guild_id"),
            f.whole("task_version"),
            f.whole("task_bytes"),
            f.whole("embedded_bytes"),
            f.flag("over_budget"),
            f.whole("broken_embeds"),
            f.texts("shape"),
            f.whole("open_proposals"),
            f.optional_text("last_run_at"),
            _optional_flag(f, "prompt_changed_since_run"),
        )
        for f in Fields(data, "the answer").objects("agents", "an agent")
    ]


def search_from(data: object) -> list[AgentMatches]:
    return [
        AgentMatches(
            f.text("id"),
            f.text("name"),
            tuple(
                LineMatch(m.whole("line"), m.whole("column"), m.text("text"))
                for m in f.objects("matches", "a match")
            ),
        )
        for f in Fields(data, "the answer").objects("agents", "an agent")
    ]


def change_set_of(f: Fields) -> ChangeSet:
    versions = tuple(
        VersionRef(v.text("agent_id"), v.whole("version"))
        for v in f.objects("versions", "a version")
    )
    skipped = tuple(
        (s.text("agent_id"), s.text("reason")) for s in f.optional_objects("skipped", "a skip")
    )
    contents = tuple(
        (c.text("agent_id"), c.whole("version"), c.text("content"))
        for c in f.optional_objects("changes", "a change")
    )
    return ChangeSet(
        f.text("id"),
        f.text("title"),
        f.text("author_name"),
        f.text("created_at"),
        versions,
        skipped,
        contents,
    )


def change_set_from(data: object) -> ChangeSet:
    return change_set_of(Fields(data, "the answer"))


def change_sets_from(data: object) -> list[ChangeSet]:
    return [
        change_set_of(f) for f in Fields(data, "the answer").objects("change_sets", "a change set")
    ]


def audit_from(data: object) -> list[AuditEvent]:
    events = []
    for f in Fields(data, "the answer").objects("events", "an event"):
        if not isinstance(f.value("agent_ids"), list):
            raise ShapeError("“agent_ids” is not a list")
        events.append(
            AuditEvent(
                f.text("at"),
                f.text("kind"),
                f.text("by_name"),
                f.texts("agent_ids"),
                _optional_whole(f, "version"),
                f.optional_text("display_path"),
                f.optional_text("proposal_id"),
                f.optional_text("change_set_id"),
                f.optional_text("title"),
            )
        )
    return events


def live_tasks_from(data: object) -> list[LiveTaskText]:
    return [
        LiveTaskText(f.text("agent_id"), f.whole("version"), f.text("content"))
        for f in Fields(data, "the answer").objects("tasks", "a Task")
    ]
