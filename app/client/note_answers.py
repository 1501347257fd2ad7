"""The notes' write, used-by and impact answers (EXTENSION) into app.core.note_uses records."""

from __future__ import annotations

from app.core import model_json
from app.core.model_json import Fields
from app.core.models import BrokenEmbed
from app.core.note_uses import NoteDoc, NoteImpact, NoteRevision, NoteUse, UsedBy


def note_doc_from(data: object) -> NoteDoc:
    """A note with its earlier texts (a server without them: none)."""
    f = Fields(data, "the answer")
    revisions = tuple(
        NoteRevision(
            r.whole("version"),
            r.text("text"),
            r.text("replaced_at"),
            r.optional_text("replaced_by_name"),
        )
        for r in f.optional_objects("revisions", "an earlier text")
    )
    return NoteDoc(model_json.org_file(f), revisions)


def used_by_from(data: object) -> UsedBy:
    f = Fields(data, "the answer")
    uses = tuple(
        NoteUse(
            a.text("id"),
            a.text("name"),
            a.text("guild_id"),
            a.whole("hop"),
            a.text("via"),
            a.flag("reaches"),
        )
        for a in f.objects("agents", "an agent")
    )
    return UsedBy(f.text("display_path"), uses)


def _broken(f: Fields, key: str) -> tuple[BrokenEmbed, ...]:
    return tuple(
        BrokenEmbed(b.text("path"), b.whole("hop"), b.text("in"))
        for b in f.objects(key, "a broken embed")
    )


def impact_from(data: object) -> list[NoteImpact]:
    return [
        NoteImpact(
            a.text("id"),
            a.text("name"),
            a.whole("hop"),
            a.whole("embedded_bytes_before"),
            a.whole("embedded_bytes_after"),
            a.flag("over_budget_before"),
            a.flag("over_budget_after"),
            _broken(a, "broken_before"),
            _broken(a, "broken_after"),
            a.flag("prompt_changes"),
        )
        for a in Fields(data, "the answer").objects("agents", "an agent")
    ]
