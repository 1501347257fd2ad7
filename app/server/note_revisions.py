"""A note's earlier texts, kept as a Task's are: the newest 50, an empty text not kept."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.limits import MAX_REVISIONS
from app.server.org_log import Executes


@dataclass(frozen=True, slots=True)
class NoteRevision:
    version: int
    text: str
    replaced_at: str
    replaced_by_name: str

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "text": self.text,
            "replaced_at": self.replaced_at,
            "replaced_by_name": self.replaced_by_name,
        }


def archive(
    conn: Executes, display_path: str, version: int, text: str, *, at: str, by_name: str
) -> None:
    """Keep ``text`` (the note at ``version``) as replaced now; call in the replacing write."""
    if not text:  # an empty earlier text is not worth a version to restore
        return
    conn.execute(
        "INSERT INTO note_revisions (display_path, version, text, replaced_at, replaced_by_name)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (display_path, version) DO UPDATE SET"
        " text = excluded.text, replaced_at = excluded.replaced_at,"
        " replaced_by_name = excluded.replaced_by_name",
        (display_path, version, text, at, by_name),
    )
    conn.execute(
        "DELETE FROM note_revisions WHERE display_path = ? AND version NOT IN"
        " (SELECT version FROM note_revisions WHERE display_path = ?"
        "  ORDER BY version DESC LIMIT ?)",
        (display_path, display_path, MAX_REVISIONS),
    )


def forget(conn: Executes, display_path: str) -> None:
    """A path made anew starts with no history (its earlier life was deleted)."""
    conn.execute("DELETE FROM note_revisions WHERE display_path = ?", (display_path,))


def revisions(conn: Executes, display_path: str) -> list[NoteRevision]:
    """Newest first."""
    rows = conn.execute(
        "SELECT version, text, replaced_at, replaced_by_name FROM note_revisions"
        " WHERE display_path = ? ORDER BY version DESC",
        (display_path,),
    )
    return [NoteRevision(*row) for row in rows]
