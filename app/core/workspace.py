"""The workspace file (API.md): parsed and checked into plain dataclasses, or refused by entry."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.core.expander import Expansion, expand_embeds, is_display_path, task_display_path
from app.core.limits import NOTE_MAX_BYTES, TASK_MAX_BYTES, WORKSPACE_MAX_BYTES, utf8_len
from app.core.models import AccessEntry, OrgFile, PersonType, Reader
from app.core.resource_files import default_task_template

PRINCIPAL_PREFIXES = ("agent:", "guild:", "user:")
ROLES = ("read", "write")
PERSON_TYPES: tuple[PersonType, ...] = ("operator", "member", "agent")

ID_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}", re.ASCII)
"""Ids of the org, guilds, people and agents: they stand in URLs and display paths, so no
slash, dot segment, space or control character can hide in one."""
ID_RULE = "letters, digits, '_', '.' or '-', at most 128, not starting with '.' or '-'"
MAX_INT = 2**53 - 1
"""The largest version a workspace may give: every JSON reader and SQLite hold it exactly."""
_NUMBER_DIGITS_MAX = 30
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class WorkspaceError(ValueError):
    """A workspace file that breaks the rules; the message names the entry."""


@dataclass(frozen=True, slots=True)
class WsPerson:
    id: str
    name: str
    type: PersonType
    token: str


@dataclass(frozen=True, slots=True)
class WsSave:
    """A save to seed after the starting Task: the text, who saved it (a person id) and when."""

    task: str
    by: str
    at: str  # ISO 8601 UTC


@dataclass(frozen=True, slots=True)
class WsAgent:
    id: str
    name: str
    guild_id: str
    task: str  # the starting Task (version 1): `task`, else `focus`, else the template
    token: str | None
    saves: tuple[WsSave, ...] = ()  # applied in order on seeding; the last one is live

    @property
    def live_task(self) -> str:
        return self.saves[-1].task if self.saves else self.task


@dataclass(frozen=True, slots=True)
class WsGuild:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Workspace:
    org_id: str
    org_name: str
    guilds: tuple[WsGuild, ...]
    people: tuple[WsPerson, ...]
    agents: tuple[WsAgent, ...]
    files: Mapping[str, OrgFile] = field(default_factory=dict)  # by display path

    def agent(self, agent_id: str) -> WsAgent:
        for agent in self.agents:
            if agent.id == agent_id:
                return agent
        raise WorkspaceError(f"no agent {agent_id!r} in the workspace")

    def expand_for(self, agent_id: str) -> Expansion:
        """The agent's live Task (after seeded saves) expanded as a run would get it."""
        agent = self.agent(agent_id)
        return expand_embeds(
            agent.live_task,
            org_id=self.org_id,
            reader=Reader(agent.id, agent.guild_id),
            lookup=self.files,
            task_path=task_display_path(self.org_id, agent.id),
        )


def read_workspace_bytes(path: str | Path) -> bytes:
    """The bytes of a workspace file: a regular file only, of at most WORKSPACE_MAX_BYTES.

    Opened without blocking and checked on the open file, so a FIFO (which would wait for a
    writer forever), a device or a folder is refused at once, and a huge file is not read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise WorkspaceError(f"workspace file not found: {path}") from None
    except OSError as exc:
        raise WorkspaceError(f"cannot read workspace file {path}: {exc}") from None
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise WorkspaceError(
                f"cannot read workspace file {path}: it is not a regular file"
                f"{' but a folder' if stat.S_ISDIR(mode) else ''}"
            )
        try:
            data = file.read(WORKSPACE_MAX_BYTES + 1)
        except OSError as exc:
            raise WorkspaceError(f"cannot read workspace file {path}: {exc}") from None
    if len(data) > WORKSPACE_MAX_BYTES:
        raise WorkspaceError(
            f"workspace file {path} is larger than {WORKSPACE_MAX_BYTES // (1024 * 1024)} MB, "
            "the most a workspace file may be"
        )
    return data


def load_workspace(path: str | Path) -> Workspace:
    """Read and check a workspace file; every failure is a WorkspaceError naming the entry."""
    data = read_workspace_bytes(path)
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkspaceError(f"cannot read workspace file {path}: {exc}") from None
    del data  # the text is what is parsed; the bytes need not stay alongside it
    try:
        # Numbers too long to be any field's value stay text, so the check below can name
        # the entry (int() itself refuses past 4,300 digits with a bare ValueError).
        data = json.loads(raw, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise WorkspaceError(
            f"workspace file {path} is not valid JSON (line {exc.lineno}, column {exc.colno}): "
            f"{exc.msg}"
        ) from None
    except RecursionError:
        raise WorkspaceError(
            f"workspace file {path} is nested too deeply to be a workspace"
        ) from None
    return parse_workspace(data)


class LongNumber:
    """A JSON number of more digits than any field takes; refused where it stands."""

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {len(self.digits)} digits"


def _json_int(digits: str) -> int | LongNumber:
    return int(digits) if len(digits) <= _NUMBER_DIGITS_MAX else LongNumber(digits)


def parse_workspace(data: Any) -> Workspace:
    """Check a decoded workspace document (see API.md, "The workspace file")."""
    top = _obj(data, "the workspace")
    org = _obj(top.get("org"), "org")
    org_id = _id(org, "org")
    org_name = _str(org, "name", "org", default=org_id)

    guilds = tuple(
        WsGuild(_id(g, where), _str(g, "name", where, default=_id(g, where)))
        for where, g in _entries(top, "guilds")
    )
    _unique((g.id for g in guilds), "guilds")
    guild_ids = {g.id for g in guilds}

    people: list[WsPerson] = []
    for where, p in _entries(top, "people"):
        ptype = _str(p, "type", where, default="operator")
        if ptype not in PERSON_TYPES:
            raise WorkspaceError(f"{where}: type must be one of {', '.join(PERSON_TYPES)}")
        people.append(WsPerson(_id(p, where), _str(p, "name", where), ptype, _token(p, where)))
    _unique((p.id for p in people), "people")
    person_ids = {p.id for p in people}

    template = default_task_template()
    agents: list[WsAgent] = []
    for where, a in _entries(top, "agents"):
        agent_id = _id(a, where)
        guild = _str(a, "guild", where)
        if guild not in guild_ids:
            raise WorkspaceError(f"{where} ({agent_id}): guild {guild!r} is not in guilds")
        task = _opt_str(a, "task", where)
        focus = _opt_str(a, "focus", where)
        start = task if task is not None else (focus if focus else template)
        if utf8_len(start) > TASK_MAX_BYTES:
            raise WorkspaceError(f"{where} ({agent_id}): task exceeds 256 KB")
        name = _str(a, "name", where, default=agent_id)
        saves = tuple(_save(s, spot, person_ids) for spot, s in _entries(a, "saves", where))
        token = _token(a, where) if a.get("token") is not None else None
        agents.append(WsAgent(agent_id, name, guild, start, token, saves))
    _unique((a.id for a in agents), "agents")
    tokens = [p.token for p in people] + [a.token for a in agents if a.token is not None]
    if len(set(tokens)) != len(tokens):  # which one is not said: a message must not hold it
        raise WorkspaceError("tokens: two people or agents share a token; each needs its own")

    files: dict[str, OrgFile] = {}
    for where, n in _entries(top, "notes"):
        note_path = _path(n, where, org_id)
        text = _str(n, "text", where, default="")
        if utf8_len(text) > NOTE_MAX_BYTES:
            raise WorkspaceError(f"{where} ({note_path}): text exceeds 256 KB")
        files[_new(files, note_path, where)] = OrgFile(
            note_path,
            "note",
            title=_opt_str(n, "title", where) or "",
            text=text,
            version=_int(n, "version", where, default=1),
            access=_access(n, where),
        )
    for where, c in _entries(top, "collections"):
        coll_path = _path(c, where, org_id)
        files[_new(files, coll_path, where)] = OrgFile(
            coll_path, "collection", title=_str(c, "name", where), access=_access(c, where)
        )
    for where, f in _entries(top, "files"):
        file_path = _path(f, where, org_id)
        kind = _str(f, "kind", where, default="file")
        files[_new(files, file_path, where)] = OrgFile(file_path, "file", title=kind)
    return Workspace(org_id, org_name, guilds, tuple(people), tuple(agents), files)


# ---------------------------------------------------------------- field checks


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise WorkspaceError(f"{where} must be a JSON object")
    return value


def _entries(top: dict[str, Any], key: str, parent: str = "") -> list[tuple[str, dict[str, Any]]]:
    items = top.get(key, [])
    name = f"{parent}.{key}" if parent else key
    if not isinstance(items, list):
        raise WorkspaceError(f"{name} must be a list")
    return [(f"{name}[{i}]", _obj(item, f"{name}[{i}]")) for i, item in enumerate(items)]


def _save(obj: dict[str, Any], where: str, person_ids: set[str]) -> WsSave:
    task = _str(obj, "task", where, default="")
    if utf8_len(task) > TASK_MAX_BYTES:
        raise WorkspaceError(f"{where}: task exceeds 256 KB")
    by = _str(obj, "by", where)
    if by not in person_ids:
        raise WorkspaceError(f"{where}: by {by!r} is not in people")
    return WsSave(task, by, _utc_time(obj, "at", where))


def _str(obj: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = obj.get(key, default)
    if not isinstance(value, str) or (not value and default is None):
        raise WorkspaceError(f"{where}: {key} must be a non-empty string")
    return _utf8_text(value, key, where)


def _opt_str(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise WorkspaceError(f"{where}: {key} must be a string")
    return None if value is None else _utf8_text(value, key, where)


def _utf8_text(value: str, key: str, where: str) -> str:
    """JSON may escape a lone surrogate (``"\\ud800"``); it is not text, and limits count bytes."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise WorkspaceError(
                f"{where}: {key} holds an unpaired surrogate ({value[exc.start]!a}) at "
                f"character {exc.start}; it is not valid UTF-8 text"
            ) from None
    return value


def _int(obj: dict[str, Any], key: str, where: str, default: int) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_INT:
        raise WorkspaceError(f"{where}: {key} must be a whole number from 1 to {MAX_INT}")
    return value


def _id(obj: dict[str, Any], where: str) -> str:
    value = _str(obj, "id", where)
    if not ID_RE.fullmatch(value):
        raise WorkspaceError(f"{where}: id {_shown(value)} must be {ID_RULE}")
    return value


def _token(obj: dict[str, Any], where: str) -> str:
    value = _str(obj, "token", where)
    if _CONTROL.search(value) or value != value.strip():
        # It travels in an Authorization header, which can't carry these.
        raise WorkspaceError(
            f"{where}: token must have no spaces at its ends and no control characters"
        )
    return value


def _utc_time(obj: dict[str, Any], key: str, where: str) -> str:
    """An ISO 8601 time with its offset from UTC (``2026-01-05T09:30:00Z``)."""
    value = _str(obj, key, where)
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        when = None
    if when is None or when.utcoffset() is None:
        raise WorkspaceError(
            f"{where}: {key} {_shown(value)} must be an ISO 8601 time with its zone, "
            "like 2026-01-05T09:30:00Z"
        )
    if when.utcoffset() != timedelta(0):
        raise WorkspaceError(f"{where}: {key} {_shown(value)} must be in UTC (Z or +00:00)")
    return value


def _shown(value: str) -> str:
    """A value quoted for a one-line message: escaped, and cut when long."""
    return repr(value if len(value) <= 80 else value[:79] + "…")


def _path(obj: dict[str, Any], where: str, org_id: str) -> str:
    path = _str(obj, "path", where)
    if not is_display_path(path, org_id) or _CONTROL.search(path):
        raise WorkspaceError(f"{where}: path {_shown(path)} is not a display path org/{org_id}/…")
    return path


def _new(files: dict[str, OrgFile], path: str, where: str) -> str:
    if path in files:
        raise WorkspaceError(f"{where}: path {path!r} is used twice")
    return path


def _access(obj: dict[str, Any], where: str) -> tuple[AccessEntry, ...]:
    raw = obj.get("access", [])
    if not isinstance(raw, list):
        raise WorkspaceError(f"{where}: access must be a list")
    entries = []
    for i, e in enumerate(raw):
        spot = f"{where}.access[{i}]"
        e = _obj(e, spot)
        principal, role = _str(e, "principal", spot), _str(e, "role", spot)
        if principal != "org" and not (
            principal.startswith(PRINCIPAL_PREFIXES) and principal.split(":", 1)[1]
        ):
            raise WorkspaceError(
                f"{spot}: principal {principal!r} must be agent:<id>, guild:<id>, user:<id> or org"
            )
        if role not in ROLES:
            raise WorkspaceError(f"{spot}: role {role!r} must be read or write")
        entries.append(AccessEntry(principal, role))
    return tuple(entries)


def _unique(values: Any, what: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise WorkspaceError(f"{what}: {value!r} appears twice")
        seen.add(value)
