"""Moving a selection of a Task into a new note: the path, the texts, and the proof that the
agent's expanded Task stays the same but for the element that now wraps the text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.expander import Expansion, element_name, escape_attr, level_of
from app.core.models import AccessEntry, AgentRow, Reader, can_read

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Extraction:
    """The note's text and the Task's new text, with where the embed now stands."""

    note_text: str
    task_text: str
    embed: str


def first_heading(selection: str) -> str:
    found = _HEADING.search(selection)
    return found.group(1).strip() if found else ""


def slug(title: str) -> str:
    """``Triage rules (v2)`` → ``triage-rules-v2``; ``note`` when nothing is left."""
    return _NOT_SLUG.sub("-", title.lower()).strip("-")[:60].strip("-") or "note"


def suggested_path(org_id: str, guild_id: str, selection: str) -> str:
    """Under the agent's guild folder, named from the selection's first heading."""
    return f"org/{org_id}/guilds/{guild_id}/{slug(first_heading(selection))}.md"


def suggested_title(selection: str) -> str:
    return first_heading(selection) or "New note"


def extract(task_text: str, start: int, end: int, path: str) -> Extraction:
    """The selection ``task_text[start:end]`` moved to a note at ``path``.

    The selection's trailing line breaks stay in the Task, after the embed: a run inlines a
    note without its trailing line breaks, so the text after the embed keeps its place.
    """
    selection = task_text[start:end]
    core = selection.rstrip("\r\n")
    trailing = selection[len(core) :]
    embed = f"![[{path}]]"
    return Extraction(core + "\n", task_text[:start] + embed + trailing + task_text[end:], embed)


def wrapper(path: str) -> tuple[str, str]:
    """The opening line and the closing part of the element a run wraps the note in."""
    name = element_name(path)
    return f'<{name} path="{escape_attr(path)}" level="{level_of(path)}">\n', f"\n</{name}>"


def same_but_wrapper(before: Expansion, after: Expansion, path: str) -> bool:
    """Whether ``after``'s text is ``before``'s with the note's element put around part of it
    (and the budget the same but for the note's own bytes, the markers the same)."""
    head, tail = wrapper(path)
    text = after.text
    start = text.find(head)
    while start >= 0:
        inner_from = start + len(head)
        end = text.find(tail, inner_from)
        while end >= 0:
            if text[:start] + text[inner_from:end] + text[end + len(tail) :] == before.text:
                return _same_markers(before, after)
            end = text.find(tail, end + 1)
        start = text.find(head, start + 1)
    return False


def _same_markers(before: Expansion, after: Expansion) -> bool:
    return [b.path for b in before.broken] == [b.path for b in after.broken]


def readers(access: tuple[AccessEntry, ...], agents: list[AgentRow]) -> list[AgentRow]:
    """The agents an access list lets read the note, by the expander's rule."""
    return [a for a in agents if can_read(access, Reader(a.id, a.guild_id))]
