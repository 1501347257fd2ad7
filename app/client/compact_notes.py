"""The compact form of the picker's notes (EXTENSION ``?form=compact``) read into picker rows.

The form (docs/API-EXTENSIONS.md): ``{"form": "compact", "kinds": [...], "folders": [...],
"access": [[[principal, role], ...], ...], "entries": [[folder, name, title, kind, access]]}``,
where ``folder``, ``kind`` and ``access`` index their tables, the display path is the folder
and the name joined as they are, an empty ``title`` is the file name without ``.md``, and the
level is read from the path. The rows come out as the spec's list would give them; an entry
the picker can't use is skipped, with the reason, as there.
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Literal

from app.core.model_json import NOTE_KINDS, Fields, ShapeError, file_title, level_of
from app.core.models import AccessEntry, EmbeddableNote

COMPACT = "compact"
"""The query value asking for the form, and the ``form`` of an answer in it."""

ENTRY_FIELDS = 5  # folder, name, title, kind, access; fields after them are a later form's

NoteKind = Literal["note", "collection"]
_NOTE_KINDS: dict[str, NoteKind] = {kind: kind for kind in NOTE_KINDS}


def is_compact(data: object) -> bool:
    """Whether a decoded answer is in the compact form (any other is the spec's list)."""
    return isinstance(data, dict) and data.get("form") == COMPACT


def compact_notes(data: object) -> tuple[list[EmbeddableNote], list[str]]:
    """The usable picker rows of a compact answer, and why each other entry was left out."""
    f = Fields(data, "the answer")
    kinds = [(_NOTE_KINDS.get(k) if isinstance(k, str) else None, k) for k in _table(f, "kinds")]
    folders = [d if isinstance(d, str) else None for d in _table(f, "folders")]
    access = [_access(a) for a in _table(f, "access")]
    # The level hangs on the folder alone (a name holds no "/"): read once per folder.
    levels = [None if d is None else level_of(d + "x") for d in folders]
    note_kinds = [kind for kind, _ in kinds]
    usable: list[EmbeddableNote] = []
    skipped: list[str] = []
    for entry in _table(f, "entries"):
        # Tens of thousands of entries: the usual one is read inline, any other the careful
        # way below, which also says what is wrong with it.
        try:
            folder_at, name, title, kind_at, access_at = entry[:ENTRY_FIELDS]  # type: ignore[index]
            if (
                type(folder_at) is int
                and type(kind_at) is int
                and type(access_at) is int
                and min(folder_at, kind_at, access_at) >= 0
                and type(name) is str
                and type(title) is str
                and "/" not in name
            ):
                folder, level = folders[folder_at], levels[folder_at]
                kind, listed = note_kinds[kind_at], access[access_at]
                if (
                    folder is not None
                    and level is not None
                    and kind is not None
                    and listed is not None
                ):
                    path = folder + name
                    title = _kept_copy(title) if title else file_title(path)
                    usable.append(EmbeddableNote(path, title, kind, level, listed))
                    continue
        except (TypeError, ValueError, IndexError):
            pass
        try:
            usable.append(_entry(entry, folders, kinds, access))
        except ShapeError as exc:
            skipped.append(f"{_named(entry, folders)}: {exc}")
    return usable, skipped


def _kept_copy(text: str) -> str:
    """A new string equal to ``text``, made now.

    The decoder made each title between the entry's other strings, which are all let go
    once the notes are built: the titles alone then kept their memory pools half used, and
    the app ~11 MB bigger at 50,000 notes. Copies made here sit together with the notes.
    """
    return (text + " ")[:-1]


def _entry(
    entry: object,
    folders: list[str | None],
    kinds: list[tuple[NoteKind | None, object]],
    access: list[tuple[AccessEntry, ...] | None],
) -> EmbeddableNote:
    if not isinstance(entry, list) or len(entry) < ENTRY_FIELDS:
        raise ShapeError("an entry is not a list of five")
    folder_at, name, title, kind_at, access_at = entry[:ENTRY_FIELDS]
    folder = folders[_index(folder_at, folders, "folder")]
    if folder is None or not isinstance(name, str):
        raise ShapeError("its folder or name is not text")
    if not isinstance(title, str):
        raise ShapeError("“title” is not text")
    kind, named = kinds[_index(kind_at, kinds, "kind")]
    if kind is None:
        raise ShapeError(f"kind {named} is not a note or a collection")
    listed = access[_index(access_at, access, "access")]
    if listed is None:
        raise ShapeError("its access list is not a list of [principal, role]")
    path = folder + name
    return EmbeddableNote(path, title or file_title(path), kind, level_of(path), listed)


def _table(f: Fields, key: str) -> list[object]:
    value = f.value(key)
    if not isinstance(value, list):
        raise ShapeError(f"“{key}” is not a list")  # the whole answer is off: refused
    return value


def _index(value: object, table: Sized, what: str) -> int:
    if type(value) is not int or not 0 <= value < len(table):
        raise ShapeError(f"its {what} is not an index into “{what}s”")
    return value


def _access(value: object) -> tuple[AccessEntry, ...] | None:
    if not isinstance(value, list):
        return None
    entries: list[AccessEntry] = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) < 2:
            return None
        principal, role = pair[0], pair[1]
        if not isinstance(principal, str) or not isinstance(role, str):
            return None
        entries.append(AccessEntry(principal, role))
    return tuple(entries)


def _named(entry: object, folders: list[str | None]) -> str:
    """The entry's path in a reason when it can be told, else "an entry"."""
    if isinstance(entry, list) and len(entry) >= 2 and isinstance(entry[1], str):
        at = entry[0]
        if type(at) is int and 0 <= at < len(folders) and folders[at] is not None:
            return f"“{folders[at]}{entry[1]}”"
    return "an entry"
