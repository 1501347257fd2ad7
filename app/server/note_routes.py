"""Notes written, and their blast radius: create, save, used by, impact (EXTENSION).

shared/spec/API.md, "Notes: write, used by, impact". Who may do what: operators create notes
and see used-by and impact (others get 404 ``not found``, as for a file they can't read);
operators, and a caller whose access list gives it ``write``, save a note. Every write runs
in one transaction with the used-by index's upkeep and the org log's row (database.put_file).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.core.expander import Expansion, expand_embeds, is_display_path, task_display_path
from app.core.limits import EMBED_BUDGET_BYTES, TASK_MAX_BYTES, utf8_len
from app.core.models import AccessEntry, OrgFile, Reader
from app.core.workspace import PRINCIPAL_PREFIXES, ROLES
from app.server import note_revisions, note_uses
from app.server.auth import database
from app.server.callers import Caller
from app.server.database import Transaction
from app.server.note_path import NOTE_PATH
from app.server.org_routes import note_body
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes

extension_router = ApiRoutes()

USES_PATH = "/api/notes/{display_path:path}"  # then /used-by or /impact


def _integer(value: Any) -> int | None:
    """A JSON integer (7.0 too, as task_routes takes it); None for anything else."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if type(value) is int else None


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise ApiError(422, f"{key} must be a string")
    if utf8_len(value) > TASK_MAX_BYTES:
        raise ApiError(422, "write exceeds 256 KB")
    return value


def _access(raw: Any) -> tuple[AccessEntry, ...]:
    """An access list as the workspace file has them; 422 ``bad access list`` otherwise."""
    if not isinstance(raw, list):
        raise ApiError(422, "bad access list")
    entries: list[AccessEntry] = []
    for entry in raw:
        if not isinstance(entry, dict) or "principal" not in entry or "role" not in entry:
            raise ApiError(422, "bad access list")
        principal, role = entry["principal"], entry["role"]
        if not isinstance(principal, str) or not isinstance(role, str) or role not in ROLES:
            raise ApiError(422, "bad access list")
        named = principal.startswith(PRINCIPAL_PREFIXES) and principal.split(":", 1)[1]
        if principal != "org" and not named:
            raise ApiError(422, "bad access list")
        entries.append(AccessEntry(principal, role))
    return tuple(entries)


def is_note_path(path: str, org_id: str) -> bool:
    """A display path of the org ending in ``.md`` that is not an agent's Task."""
    if not is_display_path(path, org_id) or not path.endswith(".md"):
        return False
    parts = path.split("/")
    return not (len(parts) == 5 and parts[2] == "agents" and parts[4] == "task.md")


def _note_response(tx: Transaction, found: OrgFile, status: int = 200) -> JsonResponse:
    """The note as GET /api/notes/<path> gives it, earlier texts included."""
    body = note_body(found)
    body["revisions"] = [r.to_json() for r in note_revisions.revisions(tx.conn, found.display_path)]
    return JsonResponse(body, status_code=status)


@extension_router.post("/api/notes", reads_body=True)
def create_note(request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """A new note, version 1; operators only."""
    if not caller.is_operator:
        raise ApiError(422, "operators only")
    path = body.get("display_path")
    with database(request).write() as tx:
        if not isinstance(path, str) or not is_note_path(path, tx.meta("org_id")):
            raise ApiError(422, "not a display path")
        title = body.get("title")
        if not isinstance(title, str):
            raise ApiError(422, "title must be a string")
        text = _text(body, "text")
        access = _access(body.get("access"))
        if tx.file(path) is not None:
            raise ApiError(409, "file exists")
        # A path deleted earlier is made anew: version 1, no earlier texts.
        tx.conn.execute(
            "DELETE FROM files WHERE display_path = ? AND deleted_at IS NOT NULL", (path,)
        )
        note_revisions.forget(tx.conn, path)
        stored = tx.put_file(OrgFile(path, "note", title, text, 1, access), by=caller)
        return _note_response(tx, stored, status=201)


def _writable(caller: Caller, found: OrgFile) -> bool:
    if caller.is_operator:
        return True
    principals = caller.principals()
    return any(e.role == "write" and e.principal in principals for e in found.access)


@extension_router.put(NOTE_PATH, reads_body=True)
def put_note(display_path: str, request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """A note's new text (and title), at the version the caller last read."""
    with database(request).write() as tx:
        found = tx.file(display_path)
        if found is None or not caller.can_read(found.access):
            raise ApiError(404, "not found")
        if not _writable(caller, found):
            raise ApiError(422, "note is not writable")
        if found.kind != "note":
            raise ApiError(422, "not a note")
        expected = _integer(body.get("expected_version"))
        if expected is None:
            raise ApiError(422, "expected_version must be an integer")
        text = _text(body, "text")
        title = body.get("title", found.title)
        if not isinstance(title, str):
            raise ApiError(422, "title must be a string")
        if expected != found.version:
            raise ApiError(409, "version conflict", extra={"version": found.version})
        if text != found.text or title != found.title:
            found = tx.put_file(
                OrgFile(display_path, "note", title, text, found.version, found.access),
                by=caller,
            )
        return _note_response(tx, found)


def _operator_file(tx: Transaction, caller: Caller, display_path: str) -> OrgFile:
    """The file, for an operator; 404 ``not found`` for anyone else or a missing file."""
    found = tx.file(display_path)
    if not caller.is_operator or found is None:
        raise ApiError(404, "not found")
    return found


@extension_router.get(USES_PATH + "/used-by")
def note_used_by(display_path: str, request: Request, caller: Caller) -> Response:
    """Every agent whose Task, or a note its run inlines at hop 1, embeds the path (the
    used-by index: no expansion runs for the answer)."""
    with database(request).read() as tx:
        _operator_file(tx, caller, display_path)
        uses = note_uses.used_by(tx, display_path)
    agents = [
        {
            "id": u.agent_id,
            "name": u.name,
            "guild_id": u.guild_id,
            "hop": u.hop,
            "via": u.via,
            "reaches": u.reaches,
        }
        for u in uses
    ]
    return JsonResponse({"display_path": display_path, "agents": agents})


def _memo(lookup: Callable[[str], OrgFile | None]) -> Callable[[str], OrgFile | None]:
    """Each file read once per answer: a thousand agents look up the same few notes."""
    seen: dict[str, OrgFile | None] = {}

    def find(path: str) -> OrgFile | None:
        if path not in seen:
            seen[path] = lookup(path)
        return seen[path]

    return find


@extension_router.post(USES_PATH + "/impact", reads_body=True)
def note_impact(
    display_path: str, request: Request, caller: Caller, body: dict[str, Any]
) -> Response:
    """What a run of each agent that reaches the note would get with ``text`` as its text
    (nothing is saved): every number the expander's, as a run would get it."""
    with database(request).read() as tx:
        found = _operator_file(tx, caller, display_path)
        if found.kind != "note":
            raise ApiError(422, "not a note")
        text = _text(body, "text")
        reaching: dict[str, note_uses.Use] = {}
        for use in note_uses.used_by(tx, display_path):
            if use.reaches and use.agent_id not in reaching:  # rows come lowest hop first
                reaching[use.agent_id] = use
        edited = OrgFile(display_path, "note", found.title, text, found.version, found.access)
        if note_uses.same_lookups(found, edited):
            rows = _impact_in_place(tx, found, edited, reaching)
        else:
            rows = _impact_expanded(tx, edited, reaching)
    return JsonResponse({"display_path": display_path, "agents": rows})


def _impact_in_place(
    tx: Transaction, found: OrgFile, edited: OrgFile, reaching: dict[str, note_uses.Use]
) -> list[dict[str, Any]]:
    """An edit that keeps the note's embeds: every lookup of every run answers as now, so
    the markers stay, each run that inlines the note carries its new size, and the prompt
    changes exactly where a save would log it (``changed_in_place``). No expansion runs."""
    now = note_uses.runs_now(tx, list(reaching))
    changed = set(note_uses.changed_in_place(tx, found.display_path, found, edited))
    inlining = set(note_uses.inlining(tx, found.display_path))
    delta = note_uses.stored_size(edited.text) - note_uses.stored_size(found.text)
    rows = []
    for agent_id, use in reaching.items():
        run = now[agent_id]
        after = run.embedded_bytes + (delta if agent_id in inlining else 0)
        broken = [b.to_json() for b in run.broken]
        rows.append(_row(use, run.embedded_bytes, after, broken, broken, agent_id in changed))
    return rows


def _impact_expanded(
    tx: Transaction, edited: OrgFile, reaching: dict[str, note_uses.Use]
) -> list[dict[str, Any]]:
    """An edit that changes the note's embeds: each run is expanded now and with the edit."""
    org_id = tx.meta("org_id")
    now = _memo(tx.file)

    def then(path: str) -> OrgFile | None:
        return edited if path == edited.display_path else now(path)

    rows = []
    for agent_id, use in reaching.items():
        task = tx.task(agent_id, with_revisions=False)
        assert task is not None
        reader = Reader(agent_id, use.guild_id)
        before = _expand(task.content, org_id, reader, now)
        after = _expand(task.content, org_id, reader, then)
        rows.append(
            _row(
                use,
                before.embedded_bytes,
                after.embedded_bytes,
                [b.to_json() for b in before.broken],
                [b.to_json() for b in after.broken],
                before.text != after.text,
            )
        )
    return rows


def _expand(
    text: str, org_id: str, reader: Reader, lookup: Callable[[str], OrgFile | None]
) -> Expansion:
    return expand_embeds(
        text,
        org_id=org_id,
        reader=reader,
        lookup=lookup,
        task_path=task_display_path(org_id, reader.agent_id),
    )


def _row(
    use: note_uses.Use,
    bytes_before: int,
    bytes_after: int,
    broken_before: list[dict[str, object]],
    broken_after: list[dict[str, object]],
    prompt_changes: bool,
) -> dict[str, Any]:
    return {
        "id": use.agent_id,
        "name": use.name,
        "hop": use.hop,
        "embedded_bytes_before": bytes_before,
        "embedded_bytes_after": bytes_after,
        "over_budget_before": bytes_before > EMBED_BUDGET_BYTES,
        "over_budget_after": bytes_after > EMBED_BUDGET_BYTES,
        "broken_before": broken_before,
        "broken_after": broken_after,
        "prompt_changes": prompt_changes,
    }
