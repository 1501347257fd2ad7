"""A second, deliberately different server of the four spec endpoints, for compatibility tests.

Written from the spec text alone (shared/spec/API.md), sharing no code with the reference
server: the standard library's ``http.server`` over an in-memory org, TCP_NODELAY on every
connection. It serves only ``task.md`` (GET, PUT, DELETE), ``embed-status`` and
``embeddable-notes``; everything else is a 404. Each way a production server may
legitimately differ from the reference one is a switch in ``Variations``, changeable while it
runs (``server.variations.gzip = True``). Every request is logged in ``server.requests``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Literal

ORG_ID = "o_acme"
TASK_LIMIT = 262_144
KEEP_REVISIONS = 50
EMBED = re.compile(r"!\[\[([^\[\]\r\n]+)\]\]")
STYLE_GUIDE = f"org/{ORG_ID}/guilds/guild_ops/style-guide.md"
HANDBOOK = f"org/{ORG_ID}/handbook.md"
CUSTOMERS = f"org/{ORG_ID}/guilds/guild_ops/customers"
METHODS = f"org/{ORG_ID}/guilds/guild_research/methods.md"
SCOUT_V1 = "# Scout\n\nWatch the queue.\n"
SCOUT_V2 = "# Scout\n\nWatch the support queue.\n"
SCOUT_LIVE = f"# Scout\n\nWatch the support queue.\n\n![[{STYLE_GUIDE}]]\n![[{METHODS}]]\n"
WRITER_LIVE = f"# Writer\n\nDraft replies.\n\n![[{STYLE_GUIDE}]]\n![[{HANDBOOK}]]\n"
CRLF_TASK = "# Clerk\r\n\r\nFile the forms.\r\nCheck the totals.\r\n"
START = datetime(2026, 1, 5, 9, 0, 0, 123_000, tzinfo=UTC)
TOKENS = {"ann": "ann-secret", "bob": "bob-secret", "scout": "scout-secret"}


@dataclass
class Variations:
    """How this server differs from the reference one; every switch off is the plain form."""

    time_offset: bool = False  # "2026-01-05T11:00:00.123+02:00" instead of "…09:00:00Z"
    unknown_fields: bool = False  # extra fields at every level of every answer
    reordered_keys: bool = False  # the keys of every object in reverse order
    gzip: bool = False  # Content-Encoding: gzip when the client accepts it
    chunked: bool = False  # Transfer-Encoding: chunked instead of Content-Length
    connection_close: bool = False  # Connection: close after every answer
    prefix: str = ""  # the API under a path prefix, such as "/orchestrator"
    conflict_version: bool = False  # a 409 carries the live version (the spec doesn't ask it)
    etags: Literal["none", "strong", "weak"] = "none"
    delay: float = 0.0  # seconds before every answer
    author: Literal["name", "null", "absent"] = "name"  # the oldest revision's replaced_by_name
    odd_notes: bool = False  # embeddable-notes holds a record, a memory, untitled notes
    note_text: bool = False  # also serve the EXTENSION GET /api/notes/<display_path>


@dataclass
class Revision:
    version: int
    content: str
    replaced_at: datetime
    replaced_by_name: str


@dataclass
class Agent:
    id: str
    guild: str
    content: str
    version: int = 1
    revisions: list[Revision] = field(default_factory=list)  # newest first


@dataclass
class Note:
    display_path: str
    title: str
    kind: Literal["note", "collection"]
    readers: frozenset[str]  # guild ids, or "org"
    text: str = ""

    @property
    def level(self) -> str:
        rest = self.display_path.split("/")[2:]
        return {"guilds": "guild", "agents": "agent"}.get(rest[0], "org") if rest else "org"


@dataclass(frozen=True)
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


def basic_org() -> tuple[dict[str, Agent], list[Note]]:
    """Scout (two revisions, by Ann then Bob), Writer, and Clerk with a CRLF Task."""
    scout = Agent(
        "a_scout",
        "guild_ops",
        SCOUT_LIVE,
        3,
        [
            Revision(2, SCOUT_V2, START + timedelta(days=1), "Bob"),
            Revision(1, SCOUT_V1, START, "Ann"),
        ],
    )
    agents = {
        "a_scout": scout,
        "a_writer": Agent("a_writer", "guild_ops", WRITER_LIVE),
        "a_clerk": Agent("a_clerk", "guild_research", CRLF_TASK),
    }
    notes = [
        Note(HANDBOOK, "Handbook", "note", frozenset({"org"}), "Be kind.\n"),
        Note(STYLE_GUIDE, "Style guide", "note", frozenset({"guild_ops"}), "Be brief.\n"),
        Note(CUSTOMERS, "Customers", "collection", frozenset({"guild_ops"})),
        Note(METHODS, "Methods", "note", frozenset({"guild_research"}), "Cite sources.\n"),
    ]
    return agents, notes


class SpecServer:
    """The server, its org and its switches; ``url`` includes the prefix."""

    def __init__(self, variations: Variations | None = None) -> None:
        self.variations = variations or Variations()
        self.agents, self.notes = basic_org()
        self.operators = {"ann-secret": "Ann", "bob-secret": "Bob"}
        self.agent_tokens = {"scout-secret": "a_scout"}
        self.requests: list[Seen] = []
        self.lock = threading.Lock()
        self.clock = START + timedelta(days=2)
        handler = type("Handler", (_Handler,), {"spec": self})
        self._httpd = _NoDelayServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def url(self) -> str:
        return self.root + self.variations.prefix

    def start(self) -> SpecServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)

    def seen(self, method: str, path_end: str) -> list[Seen]:
        """The requests received whose path ends with ``path_end``; a ``path_end`` without a
        query matches the path with its query left aside."""
        plain = "?" not in path_end
        with self.lock:
            return [
                r
                for r in self.requests
                if r.method == method
                and (r.path.partition("?")[0] if plain else r.path).endswith(path_end)
            ]

    def put_revision_author(self, agent_id: str, name: str) -> None:
        """Give the oldest revision of an agent a name (the default variation, reset)."""
        with self.lock:
            self.agents[agent_id].revisions[-1].replaced_by_name = name

    def set_task(self, agent_id: str, content: str) -> None:
        """Replace the live text in place (no revision): a seed for one test."""
        with self.lock:
            self.agents[agent_id].content = content

    # ------------------------------------------------------------------ the four endpoints

    def answer(self, method: str, route: str, token: str | None, body: bytes, inm: str | None):
        """(status, JSON body or None, extra headers) for one request; ``route`` has no prefix."""
        if token not in self.operators and token not in self.agent_tokens:
            return 401, {"error": "unauthorized"}, {}
        task = re.fullmatch(r"/api/agents/([^/]+)/files/task\.md", route)
        if task:
            agent = self.agents.get(task.group(1))
            if agent is None:
                return 404, {"error": "no such agent"}, {}
            if method == "GET":
                return self._get_task(agent, inm)
            if method == "PUT":
                return self._put_task(agent, token, body)
            if method == "DELETE":
                return 422, {"error": "cannot delete this file"}, {}
            return 405, {"error": "method not allowed"}, {}
        status = re.fullmatch(r"/api/guilds/([^/]+)/embed-status", route)
        if status and method == "GET":
            return 200, self._embed_status(status.group(1)), {}
        if route == "/api/org/embeddable-notes" and method == "GET":
            return 200, self._embeddable(), {}
        if route.startswith("/api/notes/") and method == "GET" and self.variations.note_text:
            return self._note(route.removeprefix("/api/notes/"))
        return 404, {"error": "not found"}, {}

    def _etag(self, agent: Agent) -> dict[str, str]:
        kind = self.variations.etags
        if kind == "none":
            return {}
        tag = f'"{agent.id}-{agent.version}"'
        return {"ETag": "W/" + tag if kind == "weak" else tag}

    def _get_task(self, agent: Agent, inm: str | None):
        headers = self._etag(agent)
        if inm is not None and headers:
            asked = {t.strip().removeprefix("W/") for t in inm.split(",")}
            if headers["ETag"].removeprefix("W/") in asked:
                return 304, None, headers
        return 200, self._task_body(agent), headers

    def _task_body(self, agent: Agent) -> dict[str, object]:
        revisions: list[dict[str, object]] = []
        for i, r in enumerate(agent.revisions):
            row: dict[str, object] = {
                "version": r.version,
                "content": r.content,
                "replaced_at": self._time(r.replaced_at),
                "replaced_by_name": r.replaced_by_name,
            }
            if i == len(agent.revisions) - 1 and self.variations.author != "name":
                if self.variations.author == "null":
                    row["replaced_by_name"] = None
                else:
                    del row["replaced_by_name"]
            if self.variations.unknown_fields:
                row["replaced_by_kind"] = {"system": False}
            revisions.append(row)
        body: dict[str, object] = {
            "path": "task.md",
            "display_path": f"org/{ORG_ID}/agents/{agent.id}/task.md",
            "content": agent.content,
            "version": agent.version,
            "revisions": revisions,
        }
        if self.variations.unknown_fields:
            body["x_shard"] = 7
            body["links"] = [{"rel": "self"}]
        return body

    def _put_task(self, agent: Agent, token: str | None, raw: bytes):
        try:
            data = json.loads(raw)
        except ValueError:
            return 422, {"error": "invalid json"}, {}
        if not isinstance(data, dict):
            return 422, {"error": "invalid json"}, {}
        expected = data.get("expected_version", ...)
        whole = isinstance(expected, int) and not isinstance(expected, bool)
        if expected is not ... and not whole:
            return 422, {"error": "expected_version must be an integer"}, {}
        author = self.operators.get(token or "")
        if author is None:
            return 422, {"error": "task is not writable"}, {}
        content = data.get("content")
        if not isinstance(content, str):
            return 422, {"error": "content must be a string"}, {}
        if len(content.encode("utf-8")) > TASK_LIMIT:
            return 422, {"error": "write exceeds 256 KB"}, {}
        with self.lock:
            if expected is not ... and expected != agent.version:
                conflict: dict[str, object] = {"error": "version conflict"}
                if self.variations.conflict_version:
                    conflict["version"] = agent.version
                return 409, conflict, {}
            if content != agent.content:
                self.clock += timedelta(minutes=1)
                if agent.content:
                    old = Revision(agent.version, agent.content, self.clock, author)
                    agent.revisions = [old, *agent.revisions][:KEEP_REVISIONS]
                agent.content = content
                agent.version += 1
        return 200, self._task_body(agent), self._etag(agent)

    def _embed_status(self, guild_id: str) -> dict[str, object]:
        """Hop 1 only: an embed of a path that is no note or collection the guild reads."""
        readable = {n.display_path for n in self.notes if n.readers & {"org", guild_id}}
        agents = []
        for agent in self.agents.values():
            if agent.guild != guild_id:
                continue
            where = f"org/{ORG_ID}/agents/{agent.id}/task.md"
            broken = [
                {"path": p, "hop": 1, "in": where}
                for p in (m.group(1).strip(" \t") for m in EMBED.finditer(agent.content))
                if p not in readable
            ]
            agents.append({"id": agent.id, "broken_embeds": broken})
        return {"agents": agents}

    def _note(self, display_path: str):
        note = next((n for n in self.notes if n.display_path == display_path), None)
        if note is None:
            return 404, {"error": "not found"}, {}
        body: dict[str, object] = {
            "display_path": note.display_path,
            "title": note.title,
            "kind": note.kind,
            "level": note.level,
            "version": 1,
            "content_hash": hashlib.sha256(note.text.encode()).hexdigest(),
            "access": [
                {"principal": r if r == "org" else f"guild:{r}", "role": "read"}
                for r in sorted(note.readers)
            ],
        }
        if note.kind == "note":
            body["text"] = note.text
        return 200, body, {}

    def _embeddable(self) -> dict[str, object]:
        notes: list[dict[str, object]] = [
            {"display_path": n.display_path, "title": n.title, "kind": n.kind, "level": n.level}
            for n in self.notes
        ]
        if self.variations.unknown_fields:
            for n in notes:
                n["updated_at"] = self._time(START)
        if self.variations.odd_notes:
            agents = f"org/{ORG_ID}/agents/a_scout"
            notes += [
                {
                    "display_path": f"{agents}/log",
                    "title": "Log",
                    "kind": "record",
                    "level": "agent",
                },
                {"display_path": f"{agents}/memory.md", "title": "Memory", "kind": "memory"},
                {"display_path": f"org/{ORG_ID}/untitled-plan.md", "kind": "note", "level": "org"},
                {"display_path": f"org/{ORG_ID}/null-title.md", "title": None, "kind": "note"},
                {"title": "No path", "kind": "note", "level": "org"},
                "not an object",
            ]
        return {"notes": notes}

    def _time(self, moment: datetime) -> str:
        if self.variations.time_offset:
            local = moment.astimezone(timezone(timedelta(hours=2)))
            return local.isoformat(timespec="milliseconds")
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class _NoDelayServer(ThreadingHTTPServer):
    daemon_threads = True

    def get_request(self) -> tuple[socket.socket, object]:
        conn, address = super().get_request()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, address


class _Handler(BaseHTTPRequestHandler):
    spec: SpecServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: the request log is kept in SpecServer.requests

    def do_GET(self) -> None:
        self._serve("GET")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        spec = self.spec
        v = spec.variations
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k: val for k, val in self.headers.items()}
        with spec.lock:
            spec.requests.append(Seen(method, self.path, headers, body))
        if v.delay:
            time.sleep(v.delay)
        auth = self.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else None
        path = self.path.split("?", 1)[0]
        if v.prefix and not path.startswith(v.prefix + "/"):
            status, data, extra = 404, {"error": "not found"}, {}
        else:
            route = path[len(v.prefix) :]
            status, data, extra = spec.answer(
                method, route, token, body, self.headers.get("If-None-Match")
            )
        self._send(status, data, extra)

    def _send(self, status: int, data: object, extra: dict[str, str]) -> None:
        v = self.spec.variations
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        if v.unknown_fields:
            self.send_header("X-Served-By", "spec-server")
        if v.connection_close:
            self.send_header("Connection", "close")
            self.close_connection = True
        if data is None:  # a 304
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if v.reordered_keys:
            data = _reversed_keys(data)
        payload = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self.send_header("Content-Type", "application/json; charset=utf-8")
        if v.gzip and "gzip" in self.headers.get("Accept-Encoding", ""):
            payload = gzip.compress(payload)
            self.send_header("Content-Encoding", "gzip")
        if v.chunked:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in _pieces(payload, 4096):
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)


def _reversed_keys(value: object) -> object:
    if isinstance(value, dict):
        return {k: _reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(v) for v in value]
    return value


def _pieces(data: bytes, size: int) -> Iterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i : i + size]
