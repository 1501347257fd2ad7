"""The audit as CSV, the columns the audit table shows."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from app.core.fleet_models import AuditEvent

AUDIT_COLUMNS = ("at", "kind", "by", "agents", "version", "note", "title", "change set")


def audit_cells(event: AuditEvent) -> tuple[str, ...]:
    return (
        event.at,
        event.kind,
        event.by_name,
        " ".join(event.agent_ids),
        "" if event.version is None else str(event.version),
        event.display_path or "",
        event.title or "",
        event.change_set_id or "",
    )


def audit_csv(events: Iterable[AuditEvent]) -> str:
    """RFC 4180 CSV with a header row; a cell starting with = + - @ is quoted with a leading
    apostrophe so a spreadsheet shows it rather than running it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(AUDIT_COLUMNS)
    for event in events:
        writer.writerow([_inert(cell) for cell in audit_cells(event)])
    return out.getvalue()


def _inert(cell: str) -> str:
    return "'" + cell if cell[:1] in ("=", "+", "-", "@") else cell
