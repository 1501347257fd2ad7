"""The OpenAPI document, told exactly: each route's parameters, body, answers and their shapes.

Nothing is guessed from the code: ``build_document`` takes the app's routes and describes
each one from the tables here, and ``check_described`` (run when the app is made) refuses a
route missing from them, so a new route must be described before the server starts. The
document is built when ``/openapi.json`` is first asked for (``api_pages``), not at start.
``/openapi.json``, ``/docs`` and ``/redoc`` are served without a token: they describe the
API and hold no data (docs/SECURITY.md).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Sequence
from typing import Any

from starlette.routing import BaseRoute

from app.server import note_doc, proposal_doc
from app.server.api_schemas import (
    AGENTS,
    COMPACT_NOTES,
    CONFLICT,
    EMBED_STATUS,
    EMBEDDABLE_NOTES,
    ERROR,
    GUILDS,
    INTEGER,
    JSON,
    ME,
    NOTE,
    REVISION,
    RUN,
    RUNS,
    STRING,
    TASK_DOC,
    object_schema,
    path_parameter,
)
from app.server.fleet_doc import FLEET_PARAMETERS, FLEET_REQUEST_BODIES, FLEET_RESPONSES
from app.server.routing import ApiRoute


def _body(description: str, schema: dict[str, Any], **headers: str) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description, "content": {JSON: {"schema": schema}}}
    if headers:
        answer["headers"] = {
            name.replace("_", "-"): {"description": text, "schema": STRING}
            for name, text in headers.items()
        }
    return answer


def _error(description: str) -> dict[str, Any]:
    return _body(description, ERROR)


UNAUTHORIZED = _error("`unauthorized`: no token, or not one of the org's")
DISK_FULL_ANSWER = _error("`the server's disk is full`: nothing was written; try again later")
WRITE_METHODS = ("put", "post", "delete")

RESPONSES: dict[tuple[str, str], dict[str, Any]] = {
    ("get", "/api/agents/{agent_id}/files/task.md"): {
        "200": _body("The live Task and its earlier versions", TASK_DOC, ETag="the Task's ETag"),
        "304": {"description": "Unchanged since the ETag in If-None-Match"},
        "401": UNAUTHORIZED,
        "404": _error("`no such agent`"),
    },
    ("put", "/api/agents/{agent_id}/files/task.md"): {
        "200": _body("Saved (or the same text: nothing changed)", TASK_DOC, ETag="the new ETag"),
        "401": UNAUTHORIZED,
        "404": _error("`no such agent`"),
        "409": _body("`version conflict`, with the live version", CONFLICT),
        "413": _error("`request body too large`: past what any legal save can take"),
        "422": _error(
            "`expected_version must be an integer`, `task is not writable`, "
            "`content must be a string`, `write exceeds 256 KB`, or a body that is not a "
            "JSON object"
        ),
    },
    ("get", "/api/agents/{agent_id}/files/task.md/revisions/{version}"): {
        "200": _body("One kept revision of the Task, with its text", REVISION),
        "401": UNAUTHORIZED,
        "404": _error("`no such agent`, or `no such revision`: not a kept version"),
    },
    ("delete", "/api/agents/{agent_id}/files/task.md"): {
        "401": UNAUTHORIZED,
        "404": _error("`no such agent`"),
        "422": _error("`cannot delete this file`: always"),
    },
    ("post", "/api/agents/{agent_id}/runs"): {
        "201": _body("The run, with what the caller may not read withheld", RUN),
        "401": UNAUTHORIZED,
        "404": _error("`no such agent`"),
        "422": _error("`embed budget exceeded`"),
        "429": _body("`too many runs`", ERROR, Retry_After="seconds to wait"),
    },
    ("get", "/api/agents/{agent_id}/runs"): {
        "200": _body(
            "The agent's runs, newest first, without prompts; task_source names only the "
            "notes and collections the caller may read",
            RUNS,
        ),
        "401": UNAUTHORIZED,
        "404": _error("`no such agent`"),
    },
    ("get", "/api/runs/{run_id}"): {
        "200": _body("The run, with what the caller may not read withheld", RUN),
        "401": UNAUTHORIZED,
        "404": _error("`no such run`"),
    },
    ("get", "/api/me"): {"200": _body("Who the token belongs to", ME), "401": UNAUTHORIZED},
    ("get", "/api/org/agents"): {
        "200": _body("Every agent of the org", AGENTS),
        "401": UNAUTHORIZED,
    },
    ("get", "/api/org/guilds"): {
        "200": _body("Every guild of the org", GUILDS),
        "401": UNAUTHORIZED,
    },
    ("get", "/api/guilds/{guild_id}/embed-status"): {
        "200": _body(
            "Each agent's broken embeds that the caller may see",
            EMBED_STATUS,
            ETag="the answer's ETag (EXTENSION)",
        ),
        "304": {"description": "Unchanged since the ETag in If-None-Match (EXTENSION)"},
        "401": UNAUTHORIZED,
        "404": _error("`no such guild`"),
    },
    ("get", "/api/org/embed-status"): {
        "200": _body(
            "Every agent's broken embeds that the caller may see",
            EMBED_STATUS,
            ETag="the answer's ETag",
        ),
        "304": {"description": "Unchanged since the ETag in If-None-Match"},
        "401": UNAUTHORIZED,
    },
    ("get", "/api/org/embeddable-notes"): {
        "200": _body(
            "The notes and collections the caller can read: the spec's list, or with "
            "`form=compact` the compact form (gzip when accepted)",
            {"type": "object", "oneOf": [EMBEDDABLE_NOTES, COMPACT_NOTES]},
            ETag="the list's ETag, one per caller, form and change of the notes",
            Vary="Accept-Encoding",
        ),
        "304": {"description": "Unchanged since the ETag in If-None-Match"},
        "401": UNAUTHORIZED,
    },
    ("get", "/api/notes/{display_path}"): {
        "200": _body("The note, collection or file", NOTE),
        "401": UNAUTHORIZED,
        "404": _error("`not found`: missing, or not readable by the caller"),
    },
    ("delete", "/api/notes/{display_path}"): {
        "204": {"description": "Deleted"},
        "401": UNAUTHORIZED,
        "404": _error("`not found`: missing, or not readable by the caller"),
        "409": _error("`note is embedded in task (<agent ids>)`"),
        "422": _error(
            "`cannot delete this file` (a Task, Memory, a record) or "
            "`only operators can delete notes`"
        ),
    },
}
RESPONSES.update(proposal_doc.RESPONSES)


_FORM_DOC = "EXTENSION: `compact` asks for the compact form; anything else is ignored"
_REVISIONS_DOC = (
    "EXTENSION: `summary` leaves the revisions' text out (each is then read with"
    " GET task.md/revisions/:version); anything else is ignored"
)
REVISIONS_VIEW = {
    "name": "revisions",
    "in": "query",
    "required": False,
    "schema": {
        "anyOf": [STRING, {"type": "null"}],
        "description": _REVISIONS_DOC,
        "title": "Revisions",
    },
    "description": _REVISIONS_DOC,
}
AGENT_ID, GUILD_ID, RUN_ID = (
    path_parameter("agent_id"),
    path_parameter("guild_id"),
    path_parameter("run_id"),
)
DISPLAY_PATH = path_parameter("display_path")  # may hold slashes: {display_path:path}

PARAMETERS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("get", "/api/agents/{agent_id}/files/task.md"): [AGENT_ID, REVISIONS_VIEW],
    ("put", "/api/agents/{agent_id}/files/task.md"): [AGENT_ID, REVISIONS_VIEW],
    ("get", "/api/agents/{agent_id}/files/task.md/revisions/{version}"): [
        AGENT_ID,
        path_parameter("version"),
    ],
    ("delete", "/api/agents/{agent_id}/files/task.md"): [AGENT_ID],
    ("post", "/api/agents/{agent_id}/runs"): [AGENT_ID],
    ("get", "/api/agents/{agent_id}/runs"): [AGENT_ID],
    ("get", "/api/runs/{run_id}"): [RUN_ID],
    ("get", "/api/guilds/{guild_id}/embed-status"): [GUILD_ID],
    ("get", "/api/org/embeddable-notes"): [
        # Worded as FastAPI worded an optional ``str`` (string or null, a title): any value
        # is taken, so no request is refused for it.
        {
            "name": "form",
            "in": "query",
            "required": False,
            "schema": {
                "anyOf": [STRING, {"type": "null"}],
                "description": _FORM_DOC,
                "title": "Form",
            },
            "description": _FORM_DOC,
        }
    ],
    ("get", "/api/notes/{display_path}"): [DISPLAY_PATH],
    ("delete", "/api/notes/{display_path}"): [DISPLAY_PATH],
}
PARAMETERS.update(FLEET_PARAMETERS)
"""Each operation's parameters; one with none is left out."""
PARAMETERS.update(proposal_doc.PARAMETERS)

# ---------------------------------------------------------------- live events and presence
_EVENTS_DOC = (
    "Server-sent events: `task_saved` {agent_id, version, by_name}, `proposal` {id, agent_id,"
    " status}, `note_saved` {display_path, version} (notes the caller can read), `presence`"
    " {agent_id, person_id, name, editing, since, present}; each logged event has an `id` to"
    " resume from; a comment at least every 15 s"
)
RESPONSES[("get", "/api/events")] = {
    "200": {
        "description": _EVENTS_DOC,
        "content": {"text/event-stream": {"schema": STRING}},
    },
    "401": UNAUTHORIZED,
    "422": _error("`Last-Event-ID must be an event id`"),
}
RESPONSES[("post", "/api/presence")] = {
    "204": {"description": "Noted; it lapses 60 s after the last call"},
    "401": UNAUTHORIZED,
    "404": _error("`no such agent`"),
    "422": _error(
        "`task is not writable` (an agent's token), `agent_id must be a string`, "
        "`editing must be true or false`, or a body that is not a JSON object"
    ),
}
PARAMETERS[("get", "/api/events")] = [
    {
        "name": "Last-Event-ID",
        "in": "header",
        "required": False,
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
        "description": "resume after this event (else: from now)",
    },
    {
        "name": "last_event_id",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
        "description": "the same, for clients that cannot set the header",
    },
    {
        "name": "once",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "`1`: send what there is, then close",
    },
]

REQUEST_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("put", "/api/agents/{agent_id}/files/task.md"): {
        "required": True,
        "content": {
            JSON: {
                "schema": object_schema(
                    ["content"],
                    {
                        "content": {"type": "string", "description": "at most 262,144 bytes"},
                        "expected_version": INTEGER,
                        # EXTENSION: the version a restore puts back (the change log's kind)
                        "restored_from": {"type": "integer", "minimum": 1},
                    },
                )
            }
        },
    }
}
REQUEST_BODIES.update(proposal_doc.REQUEST_BODIES)
"""The operations that take a body, and its shape (read by hand: ``request_body``)."""
RESPONSES.update(FLEET_RESPONSES)
REQUEST_BODIES.update(FLEET_REQUEST_BODIES)

# The notes' write, used-by and impact routes are described in a module of their own.
RESPONSES.update(note_doc.RESPONSES)
REQUEST_BODIES.update(note_doc.REQUEST_BODIES)
PARAMETERS.update({key: [DISPLAY_PATH] for key in note_doc.RESPONSES if "{" in key[1]})

REQUEST_BODIES[("post", "/api/presence")] = {
    "required": True,
    "content": {
        JSON: {
            "schema": object_schema(
                ["agent_id"],
                {"agent_id": STRING, "editing": {"type": "boolean"}},
            )
        }
    },
}

SECURITY_SCHEMES = {"bearer": {"type": "http", "scheme": "bearer"}}


def _described(routes: Iterable[BaseRoute]) -> Iterable[tuple[str, str, ApiRoute]]:
    """(method, path, route) of every route the document lists."""
    for route in routes:
        if isinstance(route, ApiRoute) and route.include_in_schema:
            yield route.method.lower(), route.path_format, route


def check_described(routes: Sequence[BaseRoute]) -> None:
    """KeyError for a route whose answers or path parameters the tables above don't give."""
    for method, path, _ in _described(routes):
        key = (method, path)
        if key not in RESPONSES:
            raise KeyError(f"{method.upper()} {path} is not described in openapi_doc")
        in_path = {p["name"] for p in PARAMETERS.get(key, []) if p["in"] == "path"}
        if in_path != set(re.findall(r"{(\w+)}", path)):
            raise KeyError(f"the path parameters of {method.upper()} {path} are not described")


def _operation(method: str, path: str, route: ApiRoute) -> dict[str, Any]:
    """One operation, its keys in the order FastAPI gave them (summary and operationId made
    from the handler's name as FastAPI made them, the description its docstring)."""
    key = (method, path)
    operation: dict[str, Any] = {"summary": route.name.replace("_", " ").title()}
    description = inspect.cleandoc(route.handler.__doc__ or "")
    if description:
        operation["description"] = description
    operation["operationId"] = re.sub(r"\W", "_", f"{route.name}{path}") + f"_{method}"
    if key in PARAMETERS:
        operation["parameters"] = PARAMETERS[key]
    operation["responses"] = RESPONSES[key]
    if key[0] in WRITE_METHODS:  # any write may meet a full disk (disk_full)
        operation["responses"] = {**RESPONSES[key], "507": DISK_FULL_ANSWER}
    if key in REQUEST_BODIES:
        operation["requestBody"] = REQUEST_BODIES[key]
    operation["security"] = [{"bearer": []}]
    return operation


def build_document(routes: Sequence[BaseRoute], title: str, version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document of these routes, the ones not in the schema left out."""
    check_described(routes)
    paths: dict[str, dict[str, Any]] = {}
    for method, path, route in _described(routes):
        paths.setdefault(path, {})[method] = _operation(method, path, route)
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version},
        "paths": paths,
        "components": {"securitySchemes": SECURITY_SCHEMES},
    }
