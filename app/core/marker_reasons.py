"""Why an embed became the marker: the operator-side reason the agent cannot tell apart.

The run puts the same marker wherever an embed cannot reach its file (EXPANSION.md, 3.4 and
6). The operator must know which of these it was, and what to do about it:

``missing``                 no note or collection at that display path;
``deleted``                 nothing there now, but an earlier run of the agent had it;
``no_access``               a note or collection whose access list gives this agent, its guild
                            and the org nothing to read (``granted`` and ``add`` say more);
``not_note_or_collection``  the path names Memory or a record;
``other_org``               a display path of another org;
``not_display_path``        anything else that is not ``org/<org_id>/…`` (``detail`` says what).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from app.core.models import AccessEntry, OrgFile, Reader

Reason = Literal[
    "missing", "no_access", "not_note_or_collection", "other_org", "not_display_path", "deleted"
]
REASONS: tuple[Reason, ...] = (
    "missing",
    "no_access",
    "not_note_or_collection",
    "other_org",
    "not_display_path",
    "deleted",
)
READ_ROLES = ("read", "write")
_ID_CHARS = re.compile(r"[A-Za-z0-9_-]+\Z")

Lookup = Callable[[str], OrgFile | None]


@dataclass(frozen=True, slots=True)
class EarlierFile:
    """A note or collection an earlier run of the agent inlined (from its ``task_source``)."""

    display_path: str
    version: int | None = None  # collections carry no version in task_source
    run_id: str = ""
    task_path: str = ""  # the display path of the Task the run was made from, when known


@dataclass(frozen=True, slots=True)
class MarkerReason:
    """Why one embed is the marker, in words an operator can act on.

    ``detail`` narrows the reason: for ``not_display_path`` which form the path has
    (``empty``, ``backslash``, ``recipe_link``, ``recipe_guild``, ``recipe_org``,
    ``recipe_agent``, ``empty_segment``, ``dot_segment``, ``no_org_prefix``, ``no_rest``); for
    ``not_note_or_collection`` what the file is (``memory``, ``record``, …); for ``no_access``
    the file's kind; for ``other_org`` the other org's id; for ``deleted`` the runs that had it.
    """

    code: Reason
    detail: str
    message: str
    granted: tuple[AccessEntry, ...] = ()  # no_access: the access list as it stands
    add: tuple[AccessEntry, ...] = ()  # no_access: any one of these lets the agent read it

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"reason": self.code, "detail": self.detail, "message": self.message}
        if self.code == "no_access":
            body["granted"] = [{"principal": e.principal, "role": e.role} for e in self.granted]
            body["add"] = [{"principal": e.principal, "role": e.role} for e in self.add]
        return body


def earlier_files(sources: Iterable[tuple[str, Mapping[str, Any]]]) -> tuple[EarlierFile, ...]:
    """The notes and collections named by earlier runs' ``task_source`` (run id, source)."""
    found: list[EarlierFile] = []
    for run_id, source in sources:
        task_path = source.get("display_path")
        task_path = task_path if isinstance(task_path, str) else ""
        for note in source.get("notes") or ():
            if isinstance(note, Mapping) and isinstance(note.get("display_path"), str):
                version = note.get("version")
                version = version if type(version) is int else None
                found.append(EarlierFile(note["display_path"], version, run_id, task_path))
        for path in source.get("collections") or ():
            if isinstance(path, str):
                found.append(EarlierFile(path, None, run_id, task_path))
    return tuple(found)


def history_of(history: Iterable[EarlierFile], task_path: str) -> tuple[EarlierFile, ...]:
    """The part of ``history`` that is this Task's: runs of other agents say nothing about
    what this one had (an entry whose Task is not known is kept)."""
    return tuple(e for e in history if not e.task_path or e.task_path == task_path)


def history_from_json(data: Any) -> tuple[EarlierFile, ...]:
    """Earlier runs as JSON: a run (``{id, task_source}``, as ``GET /api/runs/:id`` answers),
    a bare ``task_source``, ``taskdesk expand --json``'s output, or a list of these.

    Raises ValueError naming the first entry that is none of these.
    """
    entries = data if isinstance(data, list) else [data]
    sources: list[tuple[str, Mapping[str, Any]]] = []
    for index, entry in enumerate(entries):
        source = entry.get("task_source", entry) if isinstance(entry, Mapping) else None
        if (
            not isinstance(source, Mapping)
            or not isinstance(source.get("notes"), list)
            or not isinstance(source.get("display_path"), str)
        ):
            raise ValueError(f"entry {index + 1} is not a run or a task_source")
        run_id = entry.get("id") if isinstance(entry, Mapping) else None
        sources.append((run_id if isinstance(run_id, str) else "", source))
    return earlier_files(sources)


def marker_reason(
    path: str,
    *,
    org_id: str,
    reader: Reader,
    lookup: Lookup,
    history: Iterable[EarlierFile] = (),
) -> MarkerReason:
    """The reason an embed of ``path`` is the marker for ``reader`` (the run's agent).

    Call it only for embeds the expander replaced with the marker: for any other path the
    answer says nothing useful.
    """
    form = _path_form(path, org_id)
    if form is not None:
        return form
    found = lookup(path)
    if found is None:
        return _missing_or_deleted(path, [e for e in history if e.display_path == path])
    if found.kind not in ("note", "collection"):
        what = (found.title or "file").lower()
        named = {"memory": "the agent's Memory", "record": "a record"}.get(what, f"a {what}")
        return MarkerReason(
            "not_note_or_collection",
            what,
            f"{path} is {named}, not a note or collection; only notes and collections can "
            "be embedded.",
        )
    return _no_access(path, found, reader)


def _missing_or_deleted(path: str, earlier: list[EarlierFile]) -> MarkerReason:
    if not earlier:
        return MarkerReason("missing", "", f"There is no note or collection at {path}.")
    runs = sorted({e.run_id for e in earlier if e.run_id})
    versions = sorted({e.version for e in earlier if e.version is not None})
    by = f"run {runs[0]}" if len(runs) == 1 else f"runs {_and(runs)}" if runs else "an earlier run"
    had = f"inlined it ({', '.join(f'v{v}' for v in versions)})" if versions else "had it"
    return MarkerReason(
        "deleted", ", ".join(runs), f"{path} was deleted: {by} of this agent {had}."
    )


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _no_access(path: str, found: OrgFile, reader: Reader) -> MarkerReason:
    granted = found.access
    agent, guild = f"agent:{reader.agent_id}", f"guild:{reader.guild_id}"
    add = (AccessEntry(agent, "read"), AccessEntry(guild, "read"), AccessEntry("org", "read"))
    gives = ", ".join(f"{e.principal} {e.role}" for e in granted)
    return MarkerReason(
        "no_access",
        found.kind,
        f"The {found.kind} {path} is not readable by this agent: its access list "
        + (f"gives {gives}, but only" if gives else "is empty; only")
        + f" {agent}, {guild} or org with read or write count. "
        f"Add {agent} read (or {guild} read, or org read).",
        granted,
        add,
    )


def _path_form(path: str, org_id: str) -> MarkerReason | None:
    """Why ``path`` is not a display path of this org, or None when it is one."""

    def bad(detail: str, message: str) -> MarkerReason:
        return MarkerReason("not_display_path", detail, message)

    start = f"org/{org_id}/"
    if not path:
        return bad("empty", "The embed holds no path, only spaces.")
    if "\\" in path:
        return bad("backslash", f"{path} holds a backslash; display paths use / only.")
    if path.startswith("recipe:"):
        return bad(
            "recipe_link",
            f"{path} is a leftover recipe: link; write the note's display path {start}… instead.",
        )
    parts = path.split("/")
    if parts[0] in ("guild", "agent") and len(parts) > 1:
        where = "guilds/<guild id>/" if parts[0] == "guild" else "agents/<agent id>/"
        return bad(
            f"recipe_{parts[0]}",
            f"{path} is a recipe-local {parts[0]}/… path, which only a recipe understands; "
            f"in a Task write {start}{where}<path>.",  # no "…." double stop
        )
    if any(p == "" for p in parts):
        return bad("empty_segment", f"{path} has an empty segment (// or a / at an end).")
    if any(p in (".", "..") for p in parts):
        return bad(
            "dot_segment", f"{path} has a . or .. segment; display paths name files directly."
        )
    if parts[0] != "org" or len(parts) < 2:
        return bad("no_org_prefix", f"{path} does not start with {start}, as display paths do.")
    if parts[1] == org_id:
        if len(parts) < 3:
            return bad("no_rest", f"{path} names the org itself, not a note or collection.")
        return None
    if len(parts) >= 3 and _looks_like_org_id(parts[1], org_id):
        return MarkerReason(
            "other_org",
            parts[1],
            f"{path} is in org {parts[1]}, not {org_id}: an agent reaches only its own org's "
            "notes and collections.",
        )
    return bad(
        "recipe_org",
        f"{path} is a recipe-local org/… path ({parts[1]} is not an org id); "
        f"in a Task write {start}{'/'.join(parts[1:])}.",
    )


def _looks_like_org_id(segment: str, org_id: str) -> bool:
    """Org ids share a form (``o_…`` in the spec); a file or folder name like ``style.md`` or
    ``policies`` in that place marks a recipe-local ``org/…`` path instead.

    The form is this org's id up to and including its first ``_``; an id without one only
    rules out dots.
    """
    head, underscore, _ = org_id.partition("_")
    prefix = head + underscore if underscore else ""
    return (
        "." not in segment
        and _ID_CHARS.match(segment) is not None
        and segment.startswith(prefix)
        and len(segment) > len(prefix)
    )
